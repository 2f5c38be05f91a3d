package fakelichess

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"
)

// A request that a test can see has already taken its fault: a later
// request never takes the fault of one whose handler is slow to run. The
// first request is paused just after it became visible, as a loaded
// machine may pause it, while the test sends the next ones (as a client
// that gave up on the first and asked again would).
func TestFaultTakenByTheRequestFirstSeen(t *testing.T) {
	tests := []struct {
		name  string
		fault Fault
		want  []int // the statuses of the first request, then of the ones sent while it is paused
	}{
		{"one strike", Fault{Path: "/api/account", Status: http.StatusServiceUnavailable},
			[]int{http.StatusServiceUnavailable, http.StatusOK}},
		{"two strikes", Fault{Path: "/api/account", Status: http.StatusServiceUnavailable, Times: 2},
			[]int{http.StatusServiceUnavailable, http.StatusServiceUnavailable, http.StatusOK}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := New(Options{})
			defer s.Close()
			hc := &http.Client{Transport: &http.Transport{}}
			defer hc.CloseIdleConnections()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			release := make(chan struct{})
			s.recorded = func(idx int) {
				if idx == 0 {
					<-release
				}
			}
			s.Inject(tc.fault)
			type answer struct {
				status int
				err    error
			}
			first := make(chan answer, 1)
			go func() {
				st, err := getAccount(ctx, hc, s.URL)
				first <- answer{st, err}
			}()
			if err := s.WaitFor(ctx, func() bool { return len(s.Requests()) == 1 }); err != nil {
				close(release)
				t.Fatal(err)
			}
			var got []int
			for range tc.want[1:] {
				st, err := getAccount(ctx, hc, s.URL)
				if err != nil {
					close(release)
					t.Fatal(err)
				}
				got = append(got, st)
			}
			close(release)
			a := <-first
			if a.err != nil {
				t.Fatal(a.err)
			}
			got = append([]int{a.status}, got...)
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("statuses %v, want %v", got, tc.want)
			}
		})
	}
}

func getAccount(ctx context.Context, hc *http.Client, base string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/api/account", nil)
	if err != nil {
		return 0, fmt.Errorf("account request: %w", err)
	}
	req.Header.Set("Authorization", "Bearer "+BotToken)
	resp, err := hc.Do(req)
	if err != nil {
		return 0, fmt.Errorf("get account: %w", err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, nil
}
