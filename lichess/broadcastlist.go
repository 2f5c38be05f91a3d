package lichess

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/threefold-chess/threefold/internal/i18n"
)

// BroadcastQuery chooses a listing of broadcasts: one tournament's rounds
// (TourID), the top broadcasts (Top), a search (Search), a user's (User),
// or else the official ones.
type BroadcastQuery struct {
	TourID string
	Top    bool
	Search string
	User   string // Lichess asks a token with study:read for this one
	Page   int    // of Top, Search and User, from 1
	Limit  int    // of the official ones: at most this many (1 to 100)
	Live   bool   // of the official ones: only those with a round on now
}

// BroadcastListing is a listing of broadcasts: what Lichess answered, and
// its text for people.
type BroadcastListing struct {
	// Answer is what Lichess answered, to show as JSON: a *BroadcastTour,
	// a *BroadcastTop, a *BroadcastPage or a []BroadcastTour.
	Answer any
	// NextPage is the page that comes next, for the listings that have
	// pages (Top, Search, User); nil on the last page.
	NextPage *int
	write    func(*i18n.Printer, io.Writer)
}

// WriteText writes the listing for people, in p's language: each
// tournament (its name, group and tier) with its rounds (all of them, or
// the one a preview shows), their state and their addresses.
func (l *BroadcastListing) WriteText(p *i18n.Printer, w io.Writer) { l.write(p, w) }

// FindBroadcasts reads the listing q chooses.
func (c *Client) FindBroadcasts(ctx context.Context, q BroadcastQuery) (*BroadcastListing, error) {
	switch {
	case q.TourID != "":
		tour, err := c.BroadcastTour(ctx, q.TourID)
		if err != nil {
			return nil, err
		}
		return &BroadcastListing{Answer: tour, write: func(p *i18n.Printer, w io.Writer) { writeTours(p, w, []BroadcastTour{*tour}) }}, nil
	case q.Top:
		top, err := c.TopBroadcasts(ctx, q.Page)
		if err != nil {
			return nil, err
		}
		return &BroadcastListing{Answer: top, NextPage: top.Past.NextPage, write: func(p *i18n.Printer, w io.Writer) {
			if len(top.Active) > 0 {
				fmt.Fprintln(w, p.Sprintf(i18n.BcOnNow))
				writePreviews(p, w, top.Active)
			}
			fmt.Fprintln(w, p.Sprintf(i18n.BcPast))
			writePreviews(p, w, top.Past.Results)
		}}, nil
	case q.Search != "" || q.User != "":
		var page *BroadcastPage
		var err error
		if q.Search != "" {
			page, err = c.SearchBroadcasts(ctx, q.Search, q.Page)
		} else {
			page, err = c.UserBroadcasts(ctx, q.User, q.Page)
		}
		if err != nil {
			return nil, err
		}
		return &BroadcastListing{Answer: page, NextPage: page.NextPage, write: func(p *i18n.Printer, w io.Writer) { writePreviews(p, w, page.Results) }}, nil
	}
	tours, err := c.OfficialBroadcasts(ctx, q.Limit, q.Live)
	if err != nil {
		return nil, err
	}
	return &BroadcastListing{Answer: tours, write: func(p *i18n.Printer, w io.Writer) { writeTours(p, w, tours) }}, nil
}

// State says where a round stands: "on now", "finished", "starts
// 2006-01-02 15:04 UTC", "after the previous round" or "not started".
func (r BroadcastRoundInfo) State() string { return r.StateIn(i18n.For(i18n.English)) }

// StateIn is State in p's language.
func (r BroadcastRoundInfo) StateIn(p *i18n.Printer) string {
	switch {
	case r.Over():
		return p.Sprintf(i18n.BcFinished)
	case r.Ongoing:
		return p.Sprintf(i18n.BcOngoing)
	case r.StartsAt > 0:
		return p.Sprintf(i18n.BcStarts, time.UnixMilli(r.StartsAt).UTC().Format("2006-01-02 15:04 UTC"))
	case r.StartsAfterPrevious:
		return p.Sprintf(i18n.BcAfterPrevious)
	}
	return p.Sprintf(i18n.BcNotStarted)
}

func writeTours(p *i18n.Printer, w io.Writer, tours []BroadcastTour) {
	if len(tours) == 0 {
		fmt.Fprintln(w, p.Sprintf(i18n.BcNone))
		return
	}
	for i, t := range tours {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w, tourTitle(p, t.Tour, t.Group)+"  "+t.Tour.URL)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, r := range t.Rounds {
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", r.Name, r.StateIn(p), r.URL)
		}
		tw.Flush()
	}
}

func writePreviews(pr *i18n.Printer, w io.Writer, ps []BroadcastPreview) {
	if len(ps) == 0 {
		fmt.Fprintln(w, "  "+pr.Sprintf(i18n.BcNone))
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, p := range ps {
		if p.Round.ID == "" { // a user's list: no round
			fmt.Fprintf(tw, "  %s\t%s\n", tourTitle(pr, p.Tour, p.Group), p.Tour.URL)
			continue
		}
		fmt.Fprintf(tw, "  %s\t%s: %s\t%s\n", tourTitle(pr, p.Tour, p.Group), p.Round.Name, p.Round.StateIn(pr), p.Round.URL)
	}
	tw.Flush()
}

// tourTitle names a tournament: its group (unless its name says it), its
// name and its tier.
func tourTitle(p *i18n.Printer, t BroadcastTourInfo, group string) string {
	s := t.Name
	if group != "" && !strings.Contains(s, group) {
		s = group + " | " + s
	}
	if t.Tier > 0 {
		s += p.Sprintf(i18n.BcTier, t.Tier)
	}
	return s
}
