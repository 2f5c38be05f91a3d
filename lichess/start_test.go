package lichess

import (
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
