package lichess

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// BroadcastPreview is a broadcast tournament as the listings show it: the
// tournament, the name of its group if any, and one of its rounds (the
// one on now, else the next, else the last).
type BroadcastPreview struct {
	Group string             `json:"group,omitempty"`
	Tour  BroadcastTourInfo  `json:"tour"`
	Round BroadcastRoundInfo `json:"round"`
}

// BroadcastPage is one page of a broadcast listing; NextPage is nil on
// the last.
type BroadcastPage struct {
	CurrentPage int                `json:"currentPage"`
	NextPage    *int               `json:"nextPage"`
	Results     []BroadcastPreview `json:"currentPageResults"`
}

// BroadcastTop is /api/broadcast/top: the broadcasts under way (page 1
// only), then a page of past ones.
type BroadcastTop struct {
	Active []BroadcastPreview `json:"active"`
	Past   BroadcastPage      `json:"past"`
}

// OfficialBroadcasts lists Lichess's official broadcasts (/api/broadcast):
// the active ones (a round scheduled or on) by tier, then the finished
// ones, at most nb (1 to 100); live keeps only those with a round on now.
func (c *Client) OfficialBroadcasts(ctx context.Context, nb int, live bool) ([]BroadcastTour, error) {
	q := url.Values{"nb": {strconv.Itoa(nb)}}
	if live {
		q.Set("live", "true")
	}
	var body string
	op := "official broadcasts"
	if err := c.call(ctx, request{op: op, method: http.MethodGet, path: "/api/broadcast", query: q, accept: "application/x-ndjson", optAuth: true}, &body); err != nil {
		return nil, err
	}
	return decodeLines[BroadcastTour](op, body)
}

// TopBroadcasts returns a page (from 1) of Lichess's top broadcasts
// (/api/broadcast/top).
func (c *Client) TopBroadcasts(ctx context.Context, page int) (*BroadcastTop, error) {
	var t BroadcastTop
	if err := c.call(ctx, request{op: "top broadcasts", method: http.MethodGet, path: "/api/broadcast/top",
		query: url.Values{"page": {strconv.Itoa(page)}}, optAuth: true}, &t); err != nil {
		return nil, err
	}
	return &t, nil
}

// SearchBroadcasts returns a page (from 1) of the broadcasts whose name
// matches query (/api/broadcast/search).
func (c *Client) SearchBroadcasts(ctx context.Context, query string, page int) (*BroadcastPage, error) {
	var p BroadcastPage
	if err := c.call(ctx, request{op: "search broadcasts", method: http.MethodGet, path: "/api/broadcast/search",
		query: url.Values{"q": {query}, "page": {strconv.Itoa(page)}}, optAuth: true}, &p); err != nil {
		return nil, err
	}
	return &p, nil
}

// UserBroadcasts returns a page (from 1) of the broadcasts a user created
// (/api/broadcast/by/{username}); the token needs study:read. Their
// previews have no round.
func (c *Client) UserBroadcasts(ctx context.Context, username string, page int) (*BroadcastPage, error) {
	var p BroadcastPage
	if err := c.call(ctx, request{op: "broadcasts of " + username, method: http.MethodGet, path: "/api/broadcast/by/" + url.PathEscape(username),
		query: url.Values{"page": {strconv.Itoa(page)}}, auth: true}, &p); err != nil {
		return nil, err
	}
	return &p, nil
}

// decodeLines decodes an NDJSON answer, one T a line (blank lines
// skipped); a JSON array of T is read too.
func decodeLines[T any](op, body string) ([]T, error) {
	var out []T
	if t := strings.TrimSpace(body); strings.HasPrefix(t, "[") {
		if err := json.Unmarshal([]byte(t), &out); err != nil {
			return nil, fmt.Errorf("lichess: %s: %w", op, err)
		}
		return out, nil
	}
	for line := range strings.Lines(body) {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var v T
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			return nil, fmt.Errorf("lichess: %s: %w", op, err)
		}
		out = append(out, v)
	}
	return out, nil
}
