package lichess

import (
	"errors"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold/rules"
)

func TestStartFEN(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{name: "left out", in: "", want: ""},
		{name: "startpos", in: "startpos", want: ""},
		{name: "the standard start as a FEN", in: rules.StartFEN, want: ""},
		{name: "a position", in: " 8/8/4k3/8/8/4K3/8/7R w - - 0 1 ", want: "8/8/4k3/8/8/4K3/8/7R w - - 0 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := StartFEN(tt.in); got != tt.want {
				t.Errorf("StartFEN(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestStartFENVariant(t *testing.T) {
	tests := []struct {
		name, fen, variant string
		want               string
		wantVariant        rules.Variant
		unsupported        bool
	}{
		{name: "standard", fen: "startpos", variant: "standard", want: ""},
		{name: "from a position", fen: "4k3/8/8/8/8/8/8/4K2R w K - 0 1", variant: "fromPosition", want: "4k3/8/8/8/8/8/8/4K2R w K - 0 1"},
		{name: "Chess960 in X-FEN, king off e1", fen: "nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w KQkq - 0 1", variant: "chess960",
			want: "nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w GBgb - 0 1", wantVariant: rules.Chess960},
		{name: "Chess960 start 518", fen: rules.StartFEN, variant: "chess960",
			want: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", wantVariant: rules.Chess960},
		{name: "crazyhouse", fen: rules.StartFEN, variant: "crazyhouse", unsupported: true},
		{name: "three-check", fen: rules.StartFEN + " +0+0", variant: "threeCheck", unsupported: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := StartFENVariant(tt.fen, tt.variant)
			var ve *rules.VariantError
			if tt.unsupported {
				if !errors.As(err, &ve) || !strings.Contains(err.Error(), "repetition rule differs") {
					t.Fatalf("err = %v, want a VariantError", err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("= %q, %v; want %q", got, err, tt.want)
			}
			p, err := rules.ParseStart(got)
			if err != nil || p.Variant() != tt.wantVariant {
				t.Errorf("read back as %v, %v; want %v", p.Variant(), err, tt.wantVariant)
			}
		})
	}
}
