package chesscom_test

import (
	"context"
	"testing"

	"github.com/threefold-chess/threefold/chesscom"
	"github.com/threefold-chess/threefold/chesscom/chesscomtest"
)

// BenchmarkDecodeGames decodes the recorded current daily games of a player
// (two games with their whole PGN).
func BenchmarkDecodeGames(b *testing.B) {
	s := chesscomtest.New("")
	defer s.Close()
	body := s.Body("/pub/player/ivan_daily/games")
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := chesscom.DecodeGames(body); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRevalidate is one conditional request answered 304 over
// loopback: the cost of a poll of a resource that did not change.
func BenchmarkRevalidate(b *testing.B) {
	s := chesscomtest.New("/cc")
	defer s.Close()
	hc := s.Client()
	defer hc.CloseIdleConnections()
	c, err := chesscom.New(chesscom.Options{BaseURL: s.URL(), HTTPClient: hc, Contact: contact})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	if _, _, err := c.PlayerGames(ctx, chesscomtest.Player); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, m, err := c.PlayerGames(ctx, chesscomtest.Player); err != nil || !m.NotModified {
			b.Fatal(err, m)
		}
	}
}
