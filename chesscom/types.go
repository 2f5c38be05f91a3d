package chesscom

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Game is one chess.com game as every endpoint gives it, normalised.
type Game struct {
	URL          string // the chess.com game URL (https://www.chess.com/game/daily/N): the stable id
	White, Black string // usernames (derived from the profile URLs where the endpoint gives URLs)
	PGN          string // the whole PGN so far ("" where the endpoint has none)
	FEN          string // the current (or final) position as chess.com states it
	Rules        string // chess, chess960, …
	TimeClass    string // daily, rapid, blitz, bullet
	TimeControl  string // "1/259200", "600+5", …
	Turn         string // "white" or "black" (current daily games only)
	WhiteResult  string // result codes of finished games ("win", "repetition", …), "" if unknown
	BlackResult  string
	StartTime    time.Time
	LastActivity time.Time // the last action on a current daily game; zero if not given
	EndTime      time.Time // zero while the game goes on
	Finished     bool      // the game is over (an end time, a result, or a PGN result other than "*")
	Match        string    // API URL of the team match, if any
	Tournament   string    // API URL of the tournament, if any
	// AfterTheGame: a finished live game found in the player's monthly
	// archive, after it ended (Target.AfterTheGame); the PubAPI has no
	// live game in progress.
	AfterTheGame bool
}

// ClubMatches is /pub/club/{id}/matches.
type ClubMatches struct {
	Finished   []MatchRef
	InProgress []MatchRef
	Registered []MatchRef
}

// MatchRef is one entry of a club's match list.
type MatchRef struct {
	Name      string
	URL       string // "@id": the match's API URL
	Opponent  string // the opponent club's API URL
	Result    string // finished matches only
	StartTime time.Time
	TimeClass string
}

// Match is /pub/match/{id} or /pub/match/live/{id}.
type Match struct {
	ID          string // "@id": the API URL ("" if the payload has none)
	Name        string
	URL         string // the web URL
	Status      string // registration, scheduled, in_progress, finished
	Boards      int
	StartTime   time.Time
	EndTime     time.Time
	TimeClass   string
	TimeControl string
	Rules       string
	Team1       MatchTeam
	Team2       MatchTeam
}

// MatchTeam is one side of a team match.
type MatchTeam struct {
	ID      string // "@id": the club's API URL
	URL     string
	Name    string
	Score   float64
	Result  string
	Players []MatchPlayer
}

// MatchPlayer is one player of a team.
type MatchPlayer struct {
	Username      string
	Board         string // the board's API URL
	PlayedAsWhite string // result code, "" while playing
	PlayedAsBlack string
	Status        string
}

// BoardURLs returns the distinct board API URLs the teams' players name,
// in board order of first appearance.
func (m Match) BoardURLs() []string {
	seen := make(map[string]bool)
	var out []string
	for _, t := range []MatchTeam{m.Team1, m.Team2} {
		for _, p := range t.Players {
			if p.Board != "" && !seen[p.Board] {
				seen[p.Board] = true
				out = append(out, p.Board)
			}
		}
	}
	return out
}

// MatchBoard is /pub/match/{id}/{board}: the board's one or two games.
type MatchBoard struct {
	Scores map[string]float64 // board_scores by username
	Games  []Game
}

// Tournament is /pub/tournament/{id}.
type Tournament struct {
	Name        string
	URL         string // web URL
	Status      string // registration, in_progress, finished
	Creator     string
	FinishTime  time.Time
	Type        string
	Rules       string
	TimeClass   string
	TimeControl string
	TotalRounds int
	Rounds      []string // API URLs
	Players     []TournamentPlayer
}

// TournamentPlayer is a player entry of a tournament, round or group.
type TournamentPlayer struct {
	Username    string
	Status      string
	Points      float64
	TieBreak    float64
	IsAdvancing bool
}

// TournamentRound is /pub/tournament/{id}/{round}.
type TournamentRound struct {
	Groups  []string // API URLs
	Players []TournamentPlayer
}

// TournamentGroup is /pub/tournament/{id}/{round}/{group}.
type TournamentGroup struct {
	FairPlayRemovals []string
	Games            []Game
	Players          []TournamentPlayer
}

// ---- lenient scalar types -------------------------------------------------
//
// chess.com is known to send numbers as strings and strings as numbers in
// some fields, and to leave fields out. These types accept string, number,
// bool where harmless, and null; anything else (an object or an array where
// a scalar belongs) is an error.

type jString string

func (s *jString) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0 || string(b) == "null":
		*s = ""
	case b[0] == '"':
		var v string
		if err := json.Unmarshal(b, &v); err != nil {
			return err
		}
		*s = jString(v)
	case b[0] == '-' || (b[0] >= '0' && b[0] <= '9') || string(b) == "true" || string(b) == "false":
		*s = jString(b)
	default:
		return fmt.Errorf("want a string, got %.20s", b)
	}
	return nil
}

type jNumber float64

func (n *jNumber) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	var s string
	switch {
	case len(b) == 0 || string(b) == "null":
		*n = 0
		return nil
	case b[0] == '"':
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		s = strings.TrimSpace(s)
		if s == "" {
			*n = 0
			return nil
		}
	case string(b) == "true":
		*n = 1
		return nil
	case string(b) == "false":
		*n = 0
		return nil
	default:
		s = string(b)
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return fmt.Errorf("want a number, got %.20q", s)
	}
	*n = jNumber(f)
	return nil
}

// jTime is Unix seconds (number or numeric string); 0 or absent is zero.
type jTime struct{ time.Time }

func (t *jTime) UnmarshalJSON(b []byte) error {
	var n jNumber
	if err := n.UnmarshalJSON(b); err != nil {
		return err
	}
	f := float64(n)
	if f <= 0 || f > 1e11 { // zero, or beyond year 5000: not a timestamp we can use
		t.Time = time.Time{}
		return nil
	}
	t.Time = time.Unix(int64(f), 0).UTC()
	return nil
}

type jBool bool

func (v *jBool) UnmarshalJSON(b []byte) error {
	var n jNumber
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		switch strings.ToLower(strings.TrimSpace(s)) {
		case "true", "yes", "1":
			*v = true
			return nil
		case "", "false", "no", "0":
			*v = false
			return nil
		}
		return fmt.Errorf("want a boolean, got %.20q", s)
	}
	if err := n.UnmarshalJSON(b); err != nil {
		return err
	}
	*v = n != 0
	return nil
}

// jStrings is a list of strings; null or absent is empty.
type jStrings []string

func (l *jStrings) UnmarshalJSON(b []byte) error {
	var raw []jString
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	out := make([]string, 0, len(raw))
	for _, s := range raw {
		if s != "" {
			out = append(out, string(s))
		}
	}
	*l = out
	return nil
}

// jPlayer is the white/black field: a profile URL string in current daily
// games and tournament groups, an object in archives and match boards.
type jPlayer struct {
	Username string
	ID       string
	Result   string
}

func (p *jPlayer) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || string(b) == "null" {
		*p = jPlayer{}
		return nil
	}
	if b[0] == '{' {
		var o struct {
			Username jString `json:"username"`
			ID       jString `json:"@id"`
			Result   jString `json:"result"`
		}
		if err := json.Unmarshal(b, &o); err != nil {
			return err
		}
		*p = jPlayer{Username: string(o.Username), ID: string(o.ID), Result: string(o.Result)}
		if p.Username == "" {
			p.Username = UsernameFromURL(p.ID)
		}
		return nil
	}
	var s jString
	if err := s.UnmarshalJSON(b); err != nil {
		return fmt.Errorf("player: %w", err)
	}
	*p = jPlayer{ID: string(s), Username: UsernameFromURL(string(s))}
	return nil
}

// UsernameFromURL returns the username a profile URL names
// (https://api.chess.com/pub/player/NAME or https://www.chess.com/member/NAME);
// a bare name is returned as it is. Usernames are case-insensitive on
// chess.com; the case is kept as given.
func UsernameFromURL(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	if !strings.Contains(s, "/") {
		return s
	}
	p := s
	if u, err := url.Parse(s); err == nil {
		p = u.Path
	}
	parts := strings.Split(strings.Trim(p, "/"), "/")
	for i := 0; i+1 < len(parts); i++ {
		if parts[i] == "player" || parts[i] == "member" {
			return parts[i+1]
		}
	}
	return parts[len(parts)-1]
}

// ---- wire shapes -------------------------------------------------------

type wireGame struct {
	White        jPlayer `json:"white"`
	Black        jPlayer `json:"black"`
	URL          jString `json:"url"`
	FEN          jString `json:"fen"`
	PGN          jString `json:"pgn"`
	Turn         jString `json:"turn"`
	StartTime    jTime   `json:"start_time"`
	EndTime      jTime   `json:"end_time"`
	LastActivity jTime   `json:"last_activity"`
	TimeControl  jString `json:"time_control"`
	TimeClass    jString `json:"time_class"`
	Rules        jString `json:"rules"`
	Tournament   jString `json:"tournament"`
	Match        jString `json:"match"`
}

func (w wireGame) game() Game {
	g := Game{
		URL:          strings.TrimSpace(string(w.URL)),
		White:        w.White.Username,
		Black:        w.Black.Username,
		PGN:          string(w.PGN),
		FEN:          string(w.FEN),
		Rules:        string(w.Rules),
		TimeClass:    string(w.TimeClass),
		TimeControl:  string(w.TimeControl),
		Turn:         string(w.Turn),
		WhiteResult:  w.White.Result,
		BlackResult:  w.Black.Result,
		StartTime:    w.StartTime.Time,
		LastActivity: w.LastActivity.Time,
		EndTime:      w.EndTime.Time,
		Match:        string(w.Match),
		Tournament:   string(w.Tournament),
	}
	if g.White == "" {
		g.White = pgnTag(g.PGN, "White")
	}
	if g.Black == "" {
		g.Black = pgnTag(g.PGN, "Black")
	}
	g.Finished = !g.EndTime.IsZero() || (g.WhiteResult != "" && g.BlackResult != "") || finishedPGN(g.PGN)
	return g
}

// pgnTag returns the value of a tag pair of the PGN header, "" if absent.
func pgnTag(pgn, name string) string {
	prefix := "[" + name + " \""
	for line := range strings.Lines(pgn) {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if !strings.HasPrefix(line, "[") {
			return "" // movetext: the header is over
		}
		if rest, ok := strings.CutPrefix(line, prefix); ok {
			if i := strings.LastIndex(rest, "\"]"); i >= 0 {
				return strings.ReplaceAll(rest[:i], `\"`, `"`)
			}
		}
	}
	return ""
}

// finishedPGN reports whether the PGN says the game is over: a Result tag
// other than "*".
func finishedPGN(pgn string) bool {
	r := pgnTag(pgn, "Result")
	return r == "1-0" || r == "0-1" || r == "1/2-1/2"
}

func gamesOf(ws []wireGame) []Game {
	out := make([]Game, 0, len(ws))
	for _, w := range ws {
		out = append(out, w.game())
	}
	return out
}

var errNotObject = errors.New("want a JSON object")

// decodeObject unmarshals b into v after checking b is a JSON object.
func decodeObject(b []byte, v any) error {
	t := bytes.TrimSpace(b)
	if len(t) == 0 || t[0] != '{' {
		return errNotObject
	}
	return json.Unmarshal(t, v)
}

// DecodeGames decodes /pub/player/{u}/games, /pub/player/{u}/games/{YYYY}/{MM}
// and any {"games":[...]} body.
func DecodeGames(b []byte) ([]Game, error) {
	var w struct {
		Games []wireGame `json:"games"`
	}
	if err := decodeObject(b, &w); err != nil {
		return nil, fmt.Errorf("games: %w", err)
	}
	return gamesOf(w.Games), nil
}

// DecodeArchives decodes /pub/player/{u}/games/archives.
func DecodeArchives(b []byte) ([]string, error) {
	var w struct {
		Archives jStrings `json:"archives"`
	}
	if err := decodeObject(b, &w); err != nil {
		return nil, fmt.Errorf("archives: %w", err)
	}
	return []string(w.Archives), nil
}

type wireMatchRef struct {
	Name      jString `json:"name"`
	ID        jString `json:"@id"`
	Opponent  jString `json:"opponent"`
	Result    jString `json:"result"`
	StartTime jTime   `json:"start_time"`
	TimeClass jString `json:"time_class"`
}

func matchRefs(ws []wireMatchRef) []MatchRef {
	out := make([]MatchRef, 0, len(ws))
	for _, w := range ws {
		out = append(out, MatchRef{Name: string(w.Name), URL: string(w.ID), Opponent: string(w.Opponent),
			Result: string(w.Result), StartTime: w.StartTime.Time, TimeClass: string(w.TimeClass)})
	}
	return out
}

// DecodeClubMatches decodes /pub/club/{id}/matches.
func DecodeClubMatches(b []byte) (ClubMatches, error) {
	var w struct {
		Finished   []wireMatchRef `json:"finished"`
		InProgress []wireMatchRef `json:"in_progress"`
		Registered []wireMatchRef `json:"registered"`
	}
	if err := decodeObject(b, &w); err != nil {
		return ClubMatches{}, fmt.Errorf("club matches: %w", err)
	}
	return ClubMatches{Finished: matchRefs(w.Finished), InProgress: matchRefs(w.InProgress), Registered: matchRefs(w.Registered)}, nil
}

type wireTeam struct {
	ID      jString `json:"@id"`
	URL     jString `json:"url"`
	Name    jString `json:"name"`
	Score   jNumber `json:"score"`
	Result  jString `json:"result"`
	Players []struct {
		Username      jString `json:"username"`
		Board         jString `json:"board"`
		PlayedAsWhite jString `json:"played_as_white"`
		PlayedAsBlack jString `json:"played_as_black"`
		Status        jString `json:"status"`
	} `json:"players"`
}

func (w wireTeam) team() MatchTeam {
	t := MatchTeam{ID: string(w.ID), URL: string(w.URL), Name: string(w.Name), Score: float64(w.Score), Result: string(w.Result)}
	for _, p := range w.Players {
		t.Players = append(t.Players, MatchPlayer{Username: string(p.Username), Board: string(p.Board),
			PlayedAsWhite: string(p.PlayedAsWhite), PlayedAsBlack: string(p.PlayedAsBlack), Status: string(p.Status)})
	}
	return t
}

// DecodeMatch decodes /pub/match/{id} and /pub/match/live/{id}.
func DecodeMatch(b []byte) (Match, error) {
	var w struct {
		ID        jString `json:"@id"`
		Name      jString `json:"name"`
		URL       jString `json:"url"`
		Status    jString `json:"status"`
		Boards    jNumber `json:"boards"`
		StartTime jTime   `json:"start_time"`
		EndTime   jTime   `json:"end_time"`
		Settings  struct {
			TimeClass   jString `json:"time_class"`
			TimeControl jString `json:"time_control"`
			Rules       jString `json:"rules"`
		} `json:"settings"`
		Teams struct {
			Team1 wireTeam `json:"team1"`
			Team2 wireTeam `json:"team2"`
		} `json:"teams"`
	}
	if err := decodeObject(b, &w); err != nil {
		return Match{}, fmt.Errorf("match: %w", err)
	}
	boards := float64(w.Boards)
	if boards < 0 || boards > 100000 {
		boards = 0
	}
	return Match{ID: string(w.ID), Name: string(w.Name), URL: string(w.URL), Status: string(w.Status), Boards: int(boards),
		StartTime: w.StartTime.Time, EndTime: w.EndTime.Time, TimeClass: string(w.Settings.TimeClass),
		TimeControl: string(w.Settings.TimeControl), Rules: string(w.Settings.Rules),
		Team1: w.Teams.Team1.team(), Team2: w.Teams.Team2.team()}, nil
}

// DecodeMatchBoard decodes /pub/match/{id}/{board}.
func DecodeMatchBoard(b []byte) (MatchBoard, error) {
	var w struct {
		Scores map[string]jNumber `json:"board_scores"`
		Games  []wireGame         `json:"games"`
	}
	if err := decodeObject(b, &w); err != nil {
		return MatchBoard{}, fmt.Errorf("match board: %w", err)
	}
	mb := MatchBoard{Games: gamesOf(w.Games)}
	if len(w.Scores) > 0 {
		mb.Scores = make(map[string]float64, len(w.Scores))
		for k, v := range w.Scores {
			mb.Scores[k] = float64(v)
		}
	}
	return mb, nil
}

type wireTournamentPlayer struct {
	Username    jString `json:"username"`
	Status      jString `json:"status"`
	Points      jNumber `json:"points"`
	TieBreak    jNumber `json:"tie_break"`
	IsAdvancing jBool   `json:"is_advancing"`
}

func tournamentPlayers(ws []wireTournamentPlayer) []TournamentPlayer {
	out := make([]TournamentPlayer, 0, len(ws))
	for _, w := range ws {
		out = append(out, TournamentPlayer{Username: string(w.Username), Status: string(w.Status),
			Points: float64(w.Points), TieBreak: float64(w.TieBreak), IsAdvancing: bool(w.IsAdvancing)})
	}
	return out
}

// DecodeTournament decodes /pub/tournament/{id}.
func DecodeTournament(b []byte) (Tournament, error) {
	var w struct {
		Name       jString `json:"name"`
		URL        jString `json:"url"`
		Status     jString `json:"status"`
		Creator    jString `json:"creator"`
		FinishTime jTime   `json:"finish_time"`
		Settings   struct {
			Type        jString `json:"type"`
			Rules       jString `json:"rules"`
			TimeClass   jString `json:"time_class"`
			TimeControl jString `json:"time_control"`
			TotalRounds jNumber `json:"total_rounds"`
		} `json:"settings"`
		Players []wireTournamentPlayer `json:"players"`
		Rounds  jStrings               `json:"rounds"`
	}
	if err := decodeObject(b, &w); err != nil {
		return Tournament{}, fmt.Errorf("tournament: %w", err)
	}
	rounds := float64(w.Settings.TotalRounds)
	if rounds < 0 || rounds > 100000 {
		rounds = 0
	}
	return Tournament{Name: string(w.Name), URL: string(w.URL), Status: string(w.Status), Creator: string(w.Creator),
		FinishTime: w.FinishTime.Time, Type: string(w.Settings.Type), Rules: string(w.Settings.Rules),
		TimeClass: string(w.Settings.TimeClass), TimeControl: string(w.Settings.TimeControl), TotalRounds: int(rounds),
		Rounds: []string(w.Rounds), Players: tournamentPlayers(w.Players)}, nil
}

// DecodeTournamentRound decodes /pub/tournament/{id}/{round}.
func DecodeTournamentRound(b []byte) (TournamentRound, error) {
	var w struct {
		Groups  jStrings               `json:"groups"`
		Players []wireTournamentPlayer `json:"players"`
	}
	if err := decodeObject(b, &w); err != nil {
		return TournamentRound{}, fmt.Errorf("tournament round: %w", err)
	}
	return TournamentRound{Groups: []string(w.Groups), Players: tournamentPlayers(w.Players)}, nil
}

// DecodeTournamentGroup decodes /pub/tournament/{id}/{round}/{group}.
func DecodeTournamentGroup(b []byte) (TournamentGroup, error) {
	var w struct {
		FairPlayRemovals jStrings               `json:"fair_play_removals"`
		Games            []wireGame             `json:"games"`
		Players          []wireTournamentPlayer `json:"players"`
	}
	if err := decodeObject(b, &w); err != nil {
		return TournamentGroup{}, fmt.Errorf("tournament group: %w", err)
	}
	return TournamentGroup{FairPlayRemovals: []string(w.FairPlayRemovals), Games: gamesOf(w.Games), Players: tournamentPlayers(w.Players)}, nil
}
