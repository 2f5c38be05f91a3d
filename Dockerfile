# syntax=docker/dockerfile:1
# Build: docker build -t threefold .
# Run:   docker run --rm -v "$PWD/games:/games:ro" threefold scan /games/event.pgn
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
ENV THREEFOLD_DATA_DIR=/data
VOLUME ["/data", "/config"]
USER nonroot:nonroot
ENTRYPOINT ["/usr/local/bin/threefold"]
CMD ["--help"]
