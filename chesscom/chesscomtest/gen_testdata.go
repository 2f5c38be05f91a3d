//go:build ignore

// gen_testdata writes the recorded PubAPI payloads of testdata/ from real
// game scores of pgn/repetitions.pgn in the shared data folder that
// $THREEFOLD_CORPUS names (by CorpusIndex order in that file). The chess.com side (usernames, game numbers, times)
// is invented; the moves are real. FENs are computed with notnil/chess.
//
//	cd chesscom/chesscomtest && THREEFOLD_CORPUS=/path/to/shared/data go run gen_testdata.go
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/notnil/chess"
)

type src struct {
	headers map[string]string
	sans    []string
}

func readCorpus() []src {
	f, err := os.Open(filepath.Join(os.Getenv("THREEFOLD_CORPUS"), "pgn", "repetitions.pgn"))
	if err != nil {
		panic(err)
	}
	defer f.Close()
	var out []src
	var cur *src
	var text strings.Builder
	flush := func() {
		if cur == nil {
			return
		}
		cur.sans = tokens(text.String())
		out = append(out, *cur)
		cur = nil
		text.Reset()
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	inMoves := false
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "[") {
			if inMoves {
				flush()
				inMoves = false
			}
			if cur == nil {
				cur = &src{headers: map[string]string{}}
			}
			m := regexp.MustCompile(`^\[(\w+) "(.*)"\]`).FindStringSubmatch(line)
			if m != nil {
				cur.headers[m[1]] = m[2]
			}
			continue
		}
		if strings.TrimSpace(line) != "" {
			inMoves = true
			text.WriteString(line + " ")
		}
	}
	flush()
	return out
}

var (
	reComment = regexp.MustCompile(`\{[^}]*\}`)
	reNum     = regexp.MustCompile(`^\d+\.+$`)
	reNumPre  = regexp.MustCompile(`^\d+\.+`)
)

func tokens(movetext string) []string {
	movetext = reComment.ReplaceAllString(movetext, " ")
	var out []string
	for _, t := range strings.Fields(movetext) {
		if reNum.MatchString(t) {
			continue
		}
		t = reNumPre.ReplaceAllString(t, "")
		switch t {
		case "1-0", "0-1", "1/2-1/2", "*", "":
			continue
		}
		if strings.HasPrefix(t, "$") {
			continue
		}
		out = append(out, t)
	}
	return out
}

// replay returns the FEN after n plies.
func replay(sans []string, n int) string {
	g := chess.NewGame(chess.UseNotation(chess.AlgebraicNotation{}))
	for i := 0; i < n; i++ {
		if err := g.MoveStr(sans[i]); err != nil {
			panic(fmt.Sprintf("ply %d %s: %v", i+1, sans[i], err))
		}
	}
	return g.FEN()
}

func movetext(sans []string, n int, clk bool) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i%2 == 0 {
			if i > 0 {
				b.WriteString(" ")
			}
			fmt.Fprintf(&b, "%d. ", i/2+1)
		} else if clk {
			fmt.Fprintf(&b, " %d... ", i/2+1)
		} else {
			b.WriteString(" ")
		}
		b.WriteString(sans[i])
		if clk {
			fmt.Fprintf(&b, " {[%%clk %d:%02d:00]}", 71-(i%7), (i*13)%60)
		}
	}
	return b.String()
}

var base = time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)

type game struct {
	src           src
	plies         int
	id            int64
	white, black  string
	result        string // "*" in progress
	live          bool
	clk           bool
	start, last   time.Time
	wres, bres    string
	tournament    string
	match         string
	timeClass, tc string
	noPGN         bool
}

func (g game) url() string {
	if g.live {
		return fmt.Sprintf("https://www.chess.com/game/live/%d", g.id)
	}
	return fmt.Sprintf("https://www.chess.com/game/daily/%d", g.id)
}

func (g game) fen() string { return replay(g.src.sans, g.plies) }

func (g game) pgn() string {
	fen := g.fen()
	h := []string{
		`[Event "` + eventOf(g) + `"]`,
		`[Site "Chess.com"]`,
		`[Date "` + g.start.Format("2006.01.02") + `"]`,
		`[Round "-"]`,
		`[White "` + g.white + `"]`,
		`[Black "` + g.black + `"]`,
		`[Result "` + g.result + `"]`,
	}
	if g.result == "*" {
		h = append(h, `[CurrentPosition "`+fen+`"]`)
	}
	h = append(h,
		`[Timezone "UTC"]`,
		`[ECO "`+g.src.headers["ECO"]+`"]`,
		`[UTCDate "`+g.start.Format("2006.01.02")+`"]`,
		`[UTCTime "`+g.start.Format("15:04:05")+`"]`,
		`[WhiteElo "1850"]`,
		`[BlackElo "1812"]`,
		`[TimeControl "`+g.tc+`"]`,
	)
	if g.result != "*" {
		h = append(h, `[Termination "`+termination(g)+`"]`)
	}
	h = append(h, `[StartTime "`+g.start.Format("15:04:05")+`"]`, `[Link "`+g.url()+`"]`)
	return strings.Join(h, "\n") + "\n\n" + movetext(g.src.sans, g.plies, g.clk) + " " + g.result + "\n"
}

func eventOf(g game) string {
	switch {
	case g.tournament != "":
		return "Threefold Daily Open - Round 1"
	case g.match != "":
		return "Threefold Club vs Repetition Rangers"
	}
	return "Let's Play!"
}

func termination(g game) string {
	switch g.result {
	case "1/2-1/2":
		return "Game drawn by repetition"
	case "1-0":
		return g.white + " won by resignation"
	}
	return g.black + " won by resignation"
}

func profile(u string) string { return "https://api.chess.com/pub/player/" + strings.ToLower(u) }

// current is the daily-games shape: white/black are profile URLs.
func current(g game) map[string]any {
	turn := "white"
	if g.plies%2 == 1 {
		turn = "black"
	}
	m := map[string]any{
		"url": g.url(), "move_by": g.last.Add(72 * time.Hour).Unix(), "pgn": g.pgn(), "time_control": g.tc,
		"last_activity": g.last.Unix(), "rated": true, "turn": turn, "fen": g.fen(), "start_time": g.start.Unix(),
		"time_class": g.timeClass, "rules": "chess", "white": profile(g.white), "black": profile(g.black),
	}
	if g.tournament != "" {
		m["tournament"] = g.tournament
		m["eco"] = "https://www.chess.com/openings/" + g.src.headers["ECO"]
	}
	if g.match != "" {
		m["match"] = g.match
	}
	return m
}

// finished is the archive / match-board shape: white/black are objects.
func finished(g game, board bool) map[string]any {
	pl := func(name, res string) map[string]any {
		p := map[string]any{"rating": 1850, "result": res, "@id": profile(name), "username": name, "uuid": fmt.Sprintf("%08x-0000-0000-0000-000000000000", len(name))}
		if board {
			p["team"] = "https://api.chess.com/pub/club/threefold-club"
		}
		return p
	}
	wres, bres := g.wres, g.bres
	m := map[string]any{
		"url": g.url(), "fen": g.fen(), "time_control": g.tc, "rated": true,
		"tcn": "", "uuid": fmt.Sprintf("0000%04d-0000-0000-0000-000000000000", g.id%10000), "initial_setup": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		"time_class": g.timeClass, "rules": "chess", "white": pl(g.white, wres), "black": pl(g.black, bres),
		"start_time": g.start.Unix(),
	}
	if !g.noPGN {
		m["pgn"] = g.pgn()
	}
	if g.result != "*" {
		m["end_time"] = g.last.Unix()
		m["accuracies"] = map[string]any{"white": 81.4, "black": 79.9}
	} else {
		// An in-progress board game: no result yet.
		m["white"].(map[string]any)["result"] = nil
		m["black"].(map[string]any)["result"] = nil
		delete(m["white"].(map[string]any), "result")
		delete(m["black"].(map[string]any), "result")
	}
	if g.match != "" {
		m["match"] = g.match
	}
	if g.tournament != "" {
		m["tournament"] = g.tournament
	}
	return m
}

func write(path string, v any) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		panic(err)
	}
	p := filepath.Join("testdata", filepath.FromSlash(path)+".json")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		panic(err)
	}
	if err := os.WriteFile(p, append(b, '\n'), 0o644); err != nil {
		panic(err)
	}
}

func main() {
	games := readCorpus()
	pick := func(i int) src { return games[i] }
	const (
		player = "ivan_daily"
		club   = "threefold-club"
		tour   = "threefold-daily-open"
		match  = "https://api.chess.com/pub/match/1700001"
		live   = "https://api.chess.com/pub/match/live/1800001"
	)
	tourURL := "https://api.chess.com/pub/tournament/" + tour
	day := func(d int) time.Time { return base.AddDate(0, 0, d) }
	daily := func(s src, plies int, id int64, w, b string, start, last int) game {
		return game{src: s, plies: plies, id: id, white: w, black: b, result: "*", start: day(start), last: day(last).Add(time.Duration(plies) * time.Minute), timeClass: "daily", tc: "1/259200"}
	}

	// A player's current daily games: game 0 stops 4 plies before its
	// threefold (ply 52), game 1 before its claim (ply 121).
	g0 := daily(pick(0), 48, 900000001, player, "Martin_dC", 2, 27)
	g1 := daily(pick(1), 118, 900000002, "Prasad_D", player, 1, 27)
	write("pub/player/"+player+"/games", map[string]any{"games": []any{current(g0), current(g1)}})
	write("pub/player/"+player+"/games/to-move", map[string]any{"games": []any{
		map[string]any{"url": g0.url(), "move_by": g0.last.Add(72 * time.Hour).Unix(), "last_activity": g0.last.Unix()}}})
	write("pub/player/"+player+"/games/archives", map[string]any{"archives": []string{
		"https://api.chess.com/pub/player/" + player + "/games/2026/10",
		"https://api.chess.com/pub/player/" + player + "/games/2026/11"}})
	// Finished games: game 2 (threefold at ply 77, played on to 112) and a
	// live blitz game (game 3) drawn by repetition.
	g2 := daily(pick(2), len(pick(2).sans), 899000003, player, "Plaskett_J", -20, 10)
	g2.result, g2.wres, g2.bres = "0-1", "resigned", "win"
	g3 := game{src: pick(3), plies: len(pick(3).sans), id: 140000000003, white: "Blitz_Fan", black: player, result: "1/2-1/2", live: true,
		start: day(12), last: day(12).Add(9 * time.Minute), timeClass: "blitz", tc: "180+2", wres: "repetition", bres: "repetition", clk: true}
	write("pub/player/"+player+"/games/2026/11", map[string]any{"games": []any{finished(g2, false), finished(g3, false)}})
	g4 := daily(pick(4), len(pick(4).sans), 898000004, player, "October_Opp", -40, -20)
	g4.start, g4.last = time.Date(2026, 10, 2, 8, 0, 0, 0, time.UTC), time.Date(2026, 10, 20, 8, 0, 0, 0, time.UTC)
	g4.result, g4.wres, g4.bres = "1/2-1/2", "repetition", "repetition"
	write("pub/player/"+player+"/games/2026/10", map[string]any{"games": []any{finished(g4, false)}})

	// A club with one daily team match in progress (two boards).
	write("pub/club/"+club+"/matches", map[string]any{
		"finished": []any{map[string]any{"name": "Threefold Club vs Old Rivals", "@id": "https://api.chess.com/pub/match/1700000",
			"opponent": "https://api.chess.com/pub/club/old-rivals", "result": "win", "start_time": day(-60).Unix(), "time_class": "daily"}},
		"in_progress": []any{map[string]any{"name": "Threefold Club vs Repetition Rangers", "@id": match,
			"opponent": "https://api.chess.com/pub/club/repetition-rangers", "start_time": day(3).Unix(), "time_class": "daily"}},
		"registered": []any{map[string]any{"name": "Threefold Club vs Next Club", "@id": "https://api.chess.com/pub/match/1700002",
			"opponent": "https://api.chess.com/pub/club/next-club", "time_class": "daily"}},
	})
	b1w := daily(pick(5), 90, 901000011, "anna_threefold", "rita_ranger", 3, 27)
	b1b := daily(pick(6), 50, 901000012, "rita_ranger", "anna_threefold", 3, 27)
	b2w := daily(pick(7), len(pick(7).sans), 901000021, "ben_threefold", "rob_ranger", 3, 20)
	b2w.result, b2w.wres, b2w.bres = "1/2-1/2", "repetition", "repetition"
	b2b := daily(pick(8), 104, 901000022, "rob_ranger", "ben_threefold", 3, 27)
	b2b.noPGN = true // the board shows no PGN for this one: it comes from rob_ranger's games
	for _, g := range []*game{&b1w, &b1b, &b2w, &b2b} {
		g.match = match
	}
	write("pub/match/1700001", map[string]any{
		"name": "Threefold Club vs Repetition Rangers", "url": "https://www.chess.com/club/matches/threefold-club/1700001",
		"@id": match, "description": "Daily team match", "start_time": day(3).Unix(), "status": "in_progress", "boards": 2,
		"settings": map[string]any{"rules": "chess", "time_class": "daily", "time_control": "1/259200", "min_team_players": 2,
			"min_required_games": 0, "autostart": false},
		"teams": map[string]any{
			"team1": map[string]any{"@id": "https://api.chess.com/pub/club/" + club, "url": "https://www.chess.com/club/" + club,
				"name": "Threefold Club", "score": 1.5, "result": nil, "fair_play_removals": []any{},
				"players": []any{
					map[string]any{"username": "anna_threefold", "board": match + "/1", "rating": 1850, "timeout_percent": 0, "status": "basic"},
					map[string]any{"username": "ben_threefold", "board": match + "/2", "rating": 1790, "played_as_white": "repetition", "timeout_percent": 0, "status": "premium"}}},
			"team2": map[string]any{"@id": "https://api.chess.com/pub/club/repetition-rangers", "url": "https://www.chess.com/club/repetition-rangers",
				"name": "Repetition Rangers", "score": 0.5, "fair_play_removals": []any{},
				"players": []any{
					map[string]any{"username": "rita_ranger", "board": match + "/1", "rating": 1830, "status": "basic"},
					map[string]any{"username": "rob_ranger", "board": match + "/2", "rating": 1801, "played_as_black": "repetition", "status": "basic"}}},
		},
	})
	write("pub/match/1700001/1", map[string]any{"board_scores": map[string]any{"anna_threefold": 0, "rita_ranger": 0},
		"games": []any{finished(b1w, true), finished(b1b, true)}})
	write("pub/match/1700001/2", map[string]any{"board_scores": map[string]any{"ben_threefold": 0.5, "rob_ranger": 0.5},
		"games": []any{finished(b2w, true), finished(b2b, true)}})
	write("pub/player/rob_ranger/games", map[string]any{"games": []any{current(b2b)}})

	// A live team match, finished: one board, two games.
	l1 := game{src: pick(9), plies: len(pick(9).sans), id: 140000000091, white: "anna_threefold", black: "lars_live", result: "1/2-1/2", live: true,
		start: day(14), last: day(14).Add(20 * time.Minute), timeClass: "rapid", tc: "600+5", wres: "repetition", bres: "repetition", match: live, clk: true}
	l2 := game{src: pick(10), plies: len(pick(10).sans), id: 140000000092, white: "lars_live", black: "anna_threefold", result: pick(10).headers["Result"], live: true,
		start: day(14).Add(30 * time.Minute), last: day(14).Add(55 * time.Minute), timeClass: "rapid", tc: "600+5", match: live, clk: true}
	l2.wres, l2.bres = results(l2.result)
	write("pub/match/live/1800001", map[string]any{
		"name": "Threefold Club vs Live Lions (live)", "url": "https://www.chess.com/club/matches/live/1800001", "@id": live,
		"start_time": day(14).Unix(), "end_time": day(14).Add(time.Hour).Unix(), "status": "finished", "boards": 1,
		"settings": map[string]any{"rules": "chess", "time_class": "standard", "time_control": "600+5", "min_team_players": 1},
		"teams": map[string]any{
			"team1": map[string]any{"@id": "https://api.chess.com/pub/club/" + club, "name": "Threefold Club", "score": 1, "result": "draw",
				"players": []any{map[string]any{"username": "anna_threefold", "board": live + "/1", "stats": "https://api.chess.com/pub/player/anna_threefold/stats",
					"played_as_white": "repetition", "played_as_black": l2.bres}}},
			"team2": map[string]any{"@id": "https://api.chess.com/pub/club/live-lions", "name": "Live Lions", "score": 1, "result": "draw",
				"players": []any{map[string]any{"username": "lars_live", "board": live + "/1", "stats": "https://api.chess.com/pub/player/lars_live/stats",
					"played_as_white": l2.wres, "played_as_black": "repetition"}}},
		},
	})
	write("pub/match/live/1800001/1", map[string]any{"board_scores": map[string]any{"anna_threefold": 1, "lars_live": 1},
		"games": []any{finished(l1, true), finished(l2, true)}})

	// A daily tournament in progress: one round, one group of three games.
	t1 := daily(pick(11), len(pick(11).sans), 902000001, "tara_t", "tom_t", 5, 22)
	t1.result = pick(11).headers["Result"]
	t1.wres, t1.bres = results(t1.result)
	t2 := daily(pick(12), 48, 902000002, "tom_t", "uma_t", 5, 27)
	t3 := daily(pick(13), 90, 902000003, "uma_t", "tara_t", 5, 27)
	for _, g := range []*game{&t1, &t2, &t3} {
		g.tournament = tourURL
		g.clk = true
	}
	t1.last = day(22)
	write("pub/tournament/"+tour, map[string]any{
		"name": "Threefold Daily Open", "url": "https://www.chess.com/tournament/" + tour, "description": "Repeat at your own risk",
		"creator": "ivan_daily", "status": "in_progress",
		"settings": map[string]any{"type": "round_robin", "rules": "chess", "time_class": "daily", "time_control": "1/259200",
			"is_rated": true, "is_official": false, "is_invite_only": false, "user_advance_count": 1, "winner_places": 1,
			"registered_user_count": 3, "games_per_opponent": 1, "total_rounds": 1, "concurrent_games_per_opponent": 1},
		"players": []any{map[string]any{"username": "tara_t", "status": "active"}, map[string]any{"username": "tom_t", "status": "active"},
			map[string]any{"username": "uma_t", "status": "active"}},
		"rounds": []string{tourURL + "/1"},
	})
	write("pub/tournament/"+tour+"/1", map[string]any{"groups": []string{tourURL + "/1/1"},
		"players": []any{map[string]any{"username": "tara_t", "is_advancing": false}, map[string]any{"username": "tom_t", "is_advancing": false},
			map[string]any{"username": "uma_t", "is_advancing": false}}})
	write("pub/tournament/"+tour+"/1/1", map[string]any{"fair_play_removals": []any{},
		"games": []any{current(t1), current(t2), current(t3)},
		"players": []any{map[string]any{"username": "tara_t", "points": 1, "tie_break": 0, "is_advancing": false},
			map[string]any{"username": "tom_t", "points": 0, "tie_break": 0, "is_advancing": false},
			map[string]any{"username": "uma_t", "points": 0, "tie_break": 0, "is_advancing": false}}})

	// The moves that continue the in-progress games, for tests.
	next := map[string]any{}
	for _, g := range []game{g0, g1, b1w, b1b, b2b, t2, t3} {
		next[g.url()] = map[string]any{"plies_now": g.plies, "rest": movetext(g.src.sans[g.plies:], len(g.src.sans)-g.plies, false),
			"rest_sans": g.src.sans[g.plies:], "corpus_index": g.src.headers["CorpusIndex"], "event": g.src.headers["Event"],
			"white": g.src.headers["White"], "black": g.src.headers["Black"], "final_fen": replay(g.src.sans, len(g.src.sans))}
	}
	write("continuations", next)
	fmt.Println("ok")
}

func results(r string) (string, string) {
	switch r {
	case "1-0":
		return "win", "resigned"
	case "0-1":
		return "resigned", "win"
	}
	return "repetition", "repetition"
}
