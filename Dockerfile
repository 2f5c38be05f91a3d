# syntax=docker/dockerfile:1
# Build: docker build -t threefold .
# Run:   docker run --rm -v "$PWD/games:/games:ro" threefold scan /games/event.pgn
#        docker run -v threefold-data:/data -v "$PWD/conf:/config" threefold watch URL
#        (conf/threefold/threefold.yaml is the config file)
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=devel
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /out/threefold ./cmd/threefold

# A static binary on a distroless base, running as an unprivileged user.
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/threefold /usr/local/bin/threefold
COPY config.example.yaml /etc/threefold/config.example.yaml
# The store lives in /data. The user config directory is /config: the
# config file read by default is /config/threefold/threefold.yaml, and
# `threefold login --for ROLE` keeps its token in /config/threefold/token-ROLE.
ENV THREEFOLD_DATA_DIR=/data
ENV XDG_CONFIG_HOME=/config
# watch and bot serve the dashboard, /metrics and /healthz here; inside the
# container only, so that the health check works with no token. To reach
# the dashboard from outside, set THREEFOLD_HTTP_ADDR=0.0.0.0:8080 and
# THREEFOLD_HTTP_TOKEN, and publish the port.
ENV THREEFOLD_HTTP_ADDR=127.0.0.1:8080
EXPOSE 8080
VOLUME ["/data", "/config"]
USER nonroot:nonroot
# distroless has no curl: the binary asks its own /healthz (with
# THREEFOLD_HTTP_TOKEN when set); 0 when every source is connected.
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 \
  CMD ["/usr/local/bin/threefold", "healthcheck"]
ENTRYPOINT ["/usr/local/bin/threefold"]
CMD ["--help"]
