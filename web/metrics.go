package web

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/threefold-chess/threefold"
)

// Metrics are the Prometheus metrics of one threefold process, on a
// registry of their own (never the global one), served at /metrics.
// The methods are safe for concurrent use; a nil *Metrics ignores calls.
type Metrics struct {
	reg        *prometheus.Registry
	games      prometheus.Gauge
	alerts     *prometheus.CounterVec
	reconnects *prometheus.CounterVec
	pauses     *prometheus.CounterVec
	connected  *prometheus.GaugeVec
	latency    prometheus.Histogram
	dropped    prometheus.Counter
}

// NewMetrics returns the metrics, registered with a new registry together
// with the Go runtime and process collectors.
func NewMetrics() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		games: prometheus.NewGauge(prometheus.GaugeOpts{Name: "threefold_games_followed",
			Help: "Games followed or played that are not finished."}),
		alerts: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "threefold_alerts_total",
			Help: "Alerts raised, by kind."}, []string{"kind"}),
		reconnects: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "threefold_stream_reconnects_total",
			Help: "Reconnections of Lichess streams, by stream."}, []string{"stream"}),
		pauses: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "threefold_rate_limit_pauses_total",
			Help: "Pauses after an HTTP 429 (rate limited), by site."}, []string{"site"}),
		connected: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "threefold_source_connected",
			Help: "1 when the source is connected, 0 when not."}, []string{"source"}),
		latency: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "threefold_update_latency_seconds",
			Help:    "Time from a game update reaching the dashboard to its push to the pages.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5}}),
		dropped: prometheus.NewCounter(prometheus.CounterOpts{Name: "threefold_dashboard_dropped_pages_total",
			Help: "Dashboard pages disconnected because they could not keep up."}),
	}
	m.reg.MustRegister(m.games, m.alerts, m.reconnects, m.pauses, m.connected, m.latency, m.dropped,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	for _, k := range threefold.Kinds {
		m.alerts.WithLabelValues(string(k)) // every kind shows, at 0
	}
	return m
}

// Registry returns the registry, to add collectors of other packages.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// SetGamesFollowed sets the number of games followed.
func (m *Metrics) SetGamesFollowed(n int) {
	if m != nil {
		m.games.Set(float64(n))
	}
}

// Alert counts an alert.
func (m *Metrics) Alert(kind threefold.AlertKind) {
	if m != nil {
		m.alerts.WithLabelValues(string(kind)).Inc()
	}
}

// Reconnect counts a reconnection of a stream.
func (m *Metrics) Reconnect(stream string) {
	if m != nil {
		m.reconnects.WithLabelValues(stream).Inc()
	}
}

// RateLimitPause counts a pause after a 429 from a site.
func (m *Metrics) RateLimitPause(site string) {
	if m != nil {
		m.pauses.WithLabelValues(site).Inc()
	}
}

// SetSourceConnected records whether a source is connected.
func (m *Metrics) SetSourceConnected(source string, connected bool) {
	if m != nil {
		v := 0.0
		if connected {
			v = 1
		}
		m.connected.WithLabelValues(source).Set(v)
	}
}

// ObserveUpdateLatency records how long an update took to reach the pages.
func (m *Metrics) ObserveUpdateLatency(d time.Duration) {
	if m != nil {
		m.latency.Observe(d.Seconds())
	}
}
