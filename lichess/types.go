package lichess

import (
	"encoding/json"
	"strings"
	"time"
)

// Event types of the account event stream (/api/stream/event).
const (
	EventGameStart         = "gameStart"
	EventGameFinish        = "gameFinish"
	EventChallenge         = "challenge"
	EventChallengeCanceled = "challengeCanceled"
	EventChallengeDeclined = "challengeDeclined"
)

// Event is one line of the account event stream. Game is set for gameStart
// and gameFinish, Challenge for the three challenge events. Raw is the line
// as Lichess sent it (for types this package does not know).
type Event struct {
	Type      string          `json:"type"`
	Game      *GameEventInfo  `json:"game,omitempty"`
	Challenge *Challenge      `json:"challenge,omitempty"`
	Compat    *Compat         `json:"compat,omitempty"`
	Raw       json.RawMessage `json:"-"`
}

// Status is a game status as {id, name}; see the Status* names. Lichess
// writes it as that object in the event stream and on the spectator
// stream, but as the bare name in /api/account/playing: both are read.
type Status struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
}

// UnmarshalJSON reads {"id":20,"name":"started"} or "started".
func (s *Status) UnmarshalJSON(b []byte) error {
	var name string
	if json.Unmarshal(b, &name) == nil {
		*s = Status{ID: statusIDs[name], Name: name}
		return nil
	}
	type plain Status
	return json.Unmarshal(b, (*plain)(s))
}

// Game status names (GameState.Status, Status.Name).
const (
	StatusCreated                   = "created"
	StatusStarted                   = "started"
	StatusAborted                   = "aborted"
	StatusMate                      = "mate"
	StatusResign                    = "resign"
	StatusStalemate                 = "stalemate"
	StatusTimeout                   = "timeout"
	StatusDraw                      = "draw"
	StatusOutOfTime                 = "outoftime"
	StatusCheat                     = "cheat"
	StatusNoStart                   = "noStart"
	StatusUnknownFinish             = "unknownFinish"
	StatusInsufficientMaterialClaim = "insufficientMaterialClaim"
	StatusVariantEnd                = "variantEnd"
)

// Finished reports whether a status name means the game is over.
func Finished(status string) bool {
	return status != "" && status != StatusCreated && status != StatusStarted
}

// DelayPlies is how far Lichess holds an ongoing game back from its
// spectators: since 2026-01-17 every endpoint (the spectator stream, the
// exports, a user's current game) shows it "delayed by 3 moves" (the
// official description), i.e. up to 3 plies short of the board. Once the
// game is over it is shown whole.
const DelayPlies = 3

// Drawn reports whether a status name means a draw whatever the winner
// field says: agreement or a draw by rule (Lichess reports every draw by
// rule as "draw"), stalemate, or insufficient material claimed.
func Drawn(status string) bool {
	return status == StatusDraw || status == StatusStalemate || status == StatusInsufficientMaterialClaim
}

// Result is the PGN result of a game with this status and winner: "1-0"
// or "0-1" when the winner is given, "1/2-1/2" for a draw, "*" while the
// game is on, when it was aborted or never started, and when it ended
// decisively (mate, resignation, cheat, …) but the winner is not given: a
// result not known is not a draw. A flag that fell ("outoftime") or a
// player who left ("timeout") without a winner is a draw on Lichess (the
// other side could not mate; the draw was claimed).
func Result(status, winner string) string {
	switch {
	case winner == "white":
		return "1-0"
	case winner == "black":
		return "0-1"
	case Drawn(status), status == StatusOutOfTime, status == StatusTimeout:
		return "1/2-1/2"
	}
	return "*"
}

// Variant names a chess variant.
type Variant struct {
	Key   string `json:"key"`
	Name  string `json:"name"`
	Short string `json:"short,omitempty"`
}

// Compat says which APIs can play a game or challenge.
type Compat struct {
	Bot   bool `json:"bot"`
	Board bool `json:"board"`
}

// Opponent is the other player in a GameEventInfo. AI is the level of the
// Lichess AI (ID is then empty).
type Opponent struct {
	ID         string `json:"id"`
	Username   string `json:"username"`
	Rating     int    `json:"rating,omitempty"`
	RatingDiff int    `json:"ratingDiff,omitempty"`
	AI         int    `json:"ai,omitempty"`
}

// GameEventInfo is the game in gameStart/gameFinish events and in
// /api/account/playing.
type GameEventInfo struct {
	FullID       string   `json:"fullId"`
	GameID       string   `json:"gameId"`
	ID           string   `json:"id"`
	FEN          string   `json:"fen"`
	Color        string   `json:"color"` // our colour: "white" or "black"
	LastMove     string   `json:"lastMove"`
	Source       string   `json:"source"`
	Status       Status   `json:"status"`
	Variant      Variant  `json:"variant"`
	Speed        string   `json:"speed"`
	Perf         string   `json:"perf"`
	Rated        bool     `json:"rated"`
	HasMoved     bool     `json:"hasMoved"`
	IsMyTurn     bool     `json:"isMyTurn"`
	SecondsLeft  int      `json:"secondsLeft"`
	Opponent     Opponent `json:"opponent"`
	Rating       int      `json:"rating,omitempty"`
	RatingDiff   int      `json:"ratingDiff,omitempty"`
	Winner       string   `json:"winner,omitempty"`
	Compat       *Compat  `json:"compat,omitempty"`
	TournamentID string   `json:"tournamentId,omitempty"`
}

// ChallengeUser is a player in a challenge.
type ChallengeUser struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Rating      int    `json:"rating,omitempty"`
	Provisional bool   `json:"provisional,omitempty"`
	Online      bool   `json:"online,omitempty"`
}

// TimeControl of a challenge: Type "clock" (Limit, Increment in seconds),
// "correspondence" (DaysPerTurn) or "unlimited".
type TimeControl struct {
	Type        string `json:"type"`
	Limit       int    `json:"limit,omitempty"`
	Increment   int    `json:"increment,omitempty"`
	Show        string `json:"show,omitempty"`
	DaysPerTurn int    `json:"daysPerTurn,omitempty"`
}

// PerfInfo names the rating category of a challenge or game.
type PerfInfo struct {
	Icon string `json:"icon,omitempty"`
	Name string `json:"name"`
}

// Challenge is the challenge object of the challenge events.
type Challenge struct {
	ID               string         `json:"id"`
	URL              string         `json:"url"`
	Status           string         `json:"status"`
	Challenger       *ChallengeUser `json:"challenger"`
	DestUser         *ChallengeUser `json:"destUser"`
	Variant          Variant        `json:"variant"`
	Rated            bool           `json:"rated"`
	Speed            string         `json:"speed"`
	TimeControl      TimeControl    `json:"timeControl"`
	Color            string         `json:"color"`
	FinalColor       string         `json:"finalColor,omitempty"`
	Perf             PerfInfo       `json:"perf"`
	Direction        string         `json:"direction,omitempty"`
	InitialFEN       string         `json:"initialFen,omitempty"`
	RematchOf        string         `json:"rematchOf,omitempty"`
	DeclineReason    string         `json:"declineReason,omitempty"`
	DeclineReasonKey string         `json:"declineReasonKey,omitempty"`
}

// Decline reasons accepted by DeclineChallenge.
const (
	DeclineGeneric     = "generic"
	DeclineLater       = "later"
	DeclineTooFast     = "tooFast"
	DeclineTooSlow     = "tooSlow"
	DeclineTimeControl = "timeControl"
	DeclineRated       = "rated"
	DeclineCasual      = "casual"
	DeclineStandard    = "standard"
	DeclineVariant     = "variant"
	DeclineNoBot       = "noBot"
	DeclineOnlyBot     = "onlyBot"
)

// Bot game stream event types.
const (
	GameEventFull         = "gameFull"
	GameEventState        = "gameState"
	GameEventChat         = "chatLine"
	GameEventOpponentGone = "opponentGone"
)

// GameEvent is one line of the bot game stream. Exactly one of Full, State,
// Chat, OpponentGone is set, matching Type. Resync is true on a gameFull that
// follows a reconnect: the consumer must take its state as the whole truth.
type GameEvent struct {
	Type         string
	Full         *GameFull
	State        *GameState
	Chat         *ChatLine
	OpponentGone *OpponentGone
	Resync       bool
	Raw          json.RawMessage
}

// GamePlayer is a player of a bot game. AILevel is set for the Lichess AI.
type GamePlayer struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Title       string `json:"title"`
	Rating      int    `json:"rating,omitempty"`
	Provisional bool   `json:"provisional,omitempty"`
	AILevel     int    `json:"aiLevel,omitempty"`
}

// GameClock is the clock of a bot game, in milliseconds.
type GameClock struct {
	Initial   int64 `json:"initial"`
	Increment int64 `json:"increment"`
}

// GameFull is the first line of a bot game stream: the immutable fields and
// the current state.
type GameFull struct {
	ID           string     `json:"id"`
	Variant      Variant    `json:"variant"`
	Speed        string     `json:"speed"`
	Perf         PerfInfo   `json:"perf"`
	Rated        bool       `json:"rated"`
	CreatedAt    int64      `json:"createdAt"`
	White        GamePlayer `json:"white"`
	Black        GamePlayer `json:"black"`
	InitialFEN   string     `json:"initialFen"` // "startpos" or a FEN
	Clock        *GameClock `json:"clock,omitempty"`
	DaysPerTurn  int        `json:"daysPerTurn,omitempty"`
	TournamentID string     `json:"tournamentId,omitempty"`
	State        GameState  `json:"state"`
}

// GameState is the mutable state of a bot game. Moves holds the whole game
// in UCI (castling may be king-to-rook, e1h1). Missing draw and takeback
// flags mean false. Times are milliseconds.
type GameState struct {
	Moves     string `json:"moves"`
	WTime     int64  `json:"wtime"`
	BTime     int64  `json:"btime"`
	WInc      int64  `json:"winc"`
	BInc      int64  `json:"binc"`
	WDraw     bool   `json:"wdraw,omitempty"`
	BDraw     bool   `json:"bdraw,omitempty"`
	WTakeback bool   `json:"wtakeback,omitempty"`
	BTakeback bool   `json:"btakeback,omitempty"`
	Status    string `json:"status"`
	Winner    string `json:"winner,omitempty"`
	Rematch   string `json:"rematch,omitempty"`
	// Expiration is present while the game may still be aborted because
	// a player has not made a first move (zero otherwise).
	Expiration Expiration `json:"expiration"`
}

// Expiration is the abort deadline of a game whose players have not both
// moved: the side to move must play within MillisToMove of the last move
// (or of the start); IdleMillis have passed when the state was sent.
type Expiration struct {
	IdleMillis   int64 `json:"idleMillis"`
	MillisToMove int64 `json:"millisToMove"`
}

// Left is the time left to make the first move when the state was sent,
// and whether there is such a deadline.
func (e Expiration) Left() (time.Duration, bool) {
	if e.MillisToMove <= 0 {
		return 0, false
	}
	return time.Duration(e.MillisToMove-e.IdleMillis) * time.Millisecond, true
}

// MoveList splits Moves into UCI moves.
func (s GameState) MoveList() []string { return strings.Fields(s.Moves) }

// ChatLine is a chat message; Room is "player" or "spectator".
type ChatLine struct {
	Username string `json:"username"`
	Text     string `json:"text"`
	Room     string `json:"room"`
}

// OpponentGone says whether the opponent left and when a win can be claimed.
type OpponentGone struct {
	Gone              bool `json:"gone"`
	ClaimWinInSeconds int  `json:"claimWinInSeconds,omitempty"`
}

// Chat rooms and the maximum length of a chat line (in characters).
const (
	RoomPlayer    = "player"
	RoomSpectator = "spectator"
	ChatMaxLen    = 140
)

// SpectatorEvent is one line of /api/stream/game/{id}: Game for the
// description (sent first and again when the game ends), Position for each
// position. Positions are delivered once each across reconnects.
type SpectatorEvent struct {
	Game     *SpectatorGame
	Position *SpectatorPosition
}

// SpectatorUser names a player on the spectator stream.
type SpectatorUser struct {
	Name  string `json:"name"`
	Title string `json:"title,omitempty"`
	ID    string `json:"id"`
}

// SpectatorPlayer is one side of a spectated game.
type SpectatorPlayer struct {
	User   *SpectatorUser `json:"user,omitempty"`
	Rating int            `json:"rating,omitempty"`
	AI     int            `json:"aiLevel,omitempty"`
}

// SpectatorGame is the description line of the spectator stream.
type SpectatorGame struct {
	ID            string  `json:"id"`
	Variant       Variant `json:"variant"`
	Speed         string  `json:"speed"`
	Perf          string  `json:"perf"`
	Rated         bool    `json:"rated"`
	InitialFEN    string  `json:"initialFen"`
	FEN           string  `json:"fen"`
	Player        string  `json:"player"`
	Turns         int     `json:"turns"`
	StartedAtTurn int     `json:"startedAtTurn"`
	Source        string  `json:"source"`
	Status        Status  `json:"status"`
	CreatedAt     int64   `json:"createdAt"`
	LastMove      string  `json:"lastMove"`
	Winner        string  `json:"winner,omitempty"`
	Players       struct {
		White SpectatorPlayer `json:"white"`
		Black SpectatorPlayer `json:"black"`
	} `json:"players"`
}

// SpectatorPosition is one position of the spectator stream. LastMove (lm)
// is empty on the first position. FEN may be a full FEN or only "board
// side": never use it for repetition identity, replay LastMove instead.
// Ply counts half-moves from the game's start (StartedAtTurn + index).
// WC and BC are clock seconds, nil when the game has no clock.
//
// Behind is how many plies the board may have been ahead of this position
// when it was delivered: DelayPlies while the game is on (Lichess's
// delay; fewer in truth for the last positions it releases when the game
// ends), the exact number for a position filled in from the export after
// the game ended, 0 once the game is known to be over.
type SpectatorPosition struct {
	FEN      string `json:"fen"`
	LastMove string `json:"lm,omitempty"`
	WC       *int   `json:"wc,omitempty"`
	BC       *int   `json:"bc,omitempty"`
	Ply      int    `json:"-"`
	Behind   int    `json:"-"`
}

// GameSummary is a line of the games-by-users and games-by-ids streams: a
// game starting or finishing. Clock is in seconds here.
type GameSummary struct {
	ID         string `json:"id"`
	Rated      bool   `json:"rated"`
	Variant    string `json:"variant"`
	Speed      string `json:"speed"`
	Perf       string `json:"perf"`
	CreatedAt  int64  `json:"createdAt"`
	Status     int    `json:"status"`
	StatusName string `json:"statusName"`
	Clock      *struct {
		Initial   int `json:"initial"`
		Increment int `json:"increment"`
		TotalTime int `json:"totalTime"`
	} `json:"clock,omitempty"`
	Players struct {
		White SummaryPlayer `json:"white"`
		Black SummaryPlayer `json:"black"`
	} `json:"players"`
	Winner      string `json:"winner,omitempty"`
	InitialFEN  string `json:"initialFen,omitempty"`
	DaysPerTurn int    `json:"daysPerTurn,omitempty"`
}

// SummaryPlayer is one side of a GameSummary.
type SummaryPlayer struct {
	UserID string `json:"userId"`
	Rating int    `json:"rating,omitempty"`
	AI     int    `json:"ai,omitempty"`
}

// TVEvent is a line of a TV feed: Type "featured" (a new game is featured)
// or "fen" (a move was played).
type TVEvent struct {
	Type     string
	Featured *TVFeatured
	FEN      *TVFen
}

// TVPlayer is a player of a featured game.
type TVPlayer struct {
	Color   string        `json:"color"`
	User    SpectatorUser `json:"user"`
	Rating  int           `json:"rating"`
	Seconds int           `json:"seconds"`
}

// TVFeatured is the "featured" payload.
type TVFeatured struct {
	ID          string     `json:"id"`
	Orientation string     `json:"orientation"`
	Players     []TVPlayer `json:"players"`
	FEN         string     `json:"fen"`
}

// TVFen is the "fen" payload: the position after LastMove.
type TVFen struct {
	FEN      string `json:"fen"`
	LastMove string `json:"lm"`
	WC       int    `json:"wc"`
	BC       int    `json:"bc"`
}

// Account is the part of /api/account the program uses.
type Account struct {
	ID       string          `json:"id"`
	Username string          `json:"username"`
	Title    string          `json:"title,omitempty"`
	URL      string          `json:"url,omitempty"`
	Disabled bool            `json:"disabled,omitempty"`
	Perfs    map[string]Perf `json:"perfs,omitempty"`
	Count    GameCount       `json:"count"`
}

// GameCount is how many games an account has played, won, drawn and lost.
type GameCount struct {
	All   int `json:"all"`
	Rated int `json:"rated"`
	Win   int `json:"win"`
	Draw  int `json:"draw"`
	Loss  int `json:"loss"`
}

// Perf is an account's rating in one category ("bullet", "blitz", …).
type Perf struct {
	Games       int  `json:"games"`
	Rating      int  `json:"rating"`
	RD          int  `json:"rd,omitempty"`
	Provisional bool `json:"prov,omitempty"`
}

// User is a user as /api/bot/online lists them.
type User struct {
	ID       string          `json:"id"`
	Username string          `json:"username"`
	Title    string          `json:"title,omitempty"`
	Perfs    map[string]Perf `json:"perfs,omitempty"`
	Disabled bool            `json:"disabled,omitempty"`
	SeenAt   int64           `json:"seenAt,omitempty"`
}

// IsBot reports whether the account is a BOT account.
func (a Account) IsBot() bool { return a.Title == "BOT" }

// TokenInfo is what /api/token/test says about one token. Scopes is split.
type TokenInfo struct {
	UserID  string
	Scopes  []string
	Expires int64 // Unix milliseconds, 0 if it never expires
}

// HasScope reports whether the token has scope s.
func (t TokenInfo) HasScope(s string) bool {
	for _, x := range t.Scopes {
		if x == s {
			return true
		}
	}
	return false
}

// Scopes used by threefold.
const (
	ScopeBotPlay        = "bot:play"
	ScopeChallengeRead  = "challenge:read"
	ScopeChallengeWrite = "challenge:write"
	ScopeStudyRead      = "study:read"
)

// ExportedGame is a game from /game/export/{id} in JSON. Moves are SAN,
// space-separated (not UCI). PGN is set (pgnInJson).
type ExportedGame struct {
	ID         string `json:"id"`
	Rated      bool   `json:"rated"`
	Variant    string `json:"variant"`
	Speed      string `json:"speed"`
	Perf       string `json:"perf"`
	CreatedAt  int64  `json:"createdAt"`
	LastMoveAt int64  `json:"lastMoveAt"`
	Status     string `json:"status"`
	Players    struct {
		White ExportPlayer `json:"white"`
		Black ExportPlayer `json:"black"`
	} `json:"players"`
	Winner     string `json:"winner,omitempty"`
	Moves      string `json:"moves"`
	InitialFEN string `json:"initialFen,omitempty"`
	PGN        string `json:"pgn,omitempty"`
}

// ExportPlayer is one side of an ExportedGame.
type ExportPlayer struct {
	User *struct {
		Name  string `json:"name"`
		Title string `json:"title,omitempty"`
		ID    string `json:"id"`
	} `json:"user,omitempty"`
	Rating  int `json:"rating,omitempty"`
	AILevel int `json:"aiLevel,omitempty"`
}

// BroadcastRoundInfo describes a broadcast round. Finished is deprecated
// by Lichess (it may disappear): use Over, which also reads FinishedAt.
// Delay is the delay the organiser set, in seconds.
type BroadcastRoundInfo struct {
	ID                  string `json:"id"`
	Name                string `json:"name"`
	Slug                string `json:"slug"`
	URL                 string `json:"url"`
	CreatedAt           int64  `json:"createdAt,omitempty"`
	Ongoing             bool   `json:"ongoing,omitempty"`
	StartsAt            int64  `json:"startsAt,omitempty"`
	StartsAfterPrevious bool   `json:"startsAfterPrevious,omitempty"`
	FinishedAt          int64  `json:"finishedAt,omitempty"`
	Finished            bool   `json:"finished,omitempty"`
	Delay               int64  `json:"delay,omitempty"`
}

// Over reports whether the round is finished: finishedAt is set, or the
// deprecated finished flag says so.
func (r BroadcastRoundInfo) Over() bool { return r.FinishedAt > 0 || r.Finished }

// BroadcastTourInfo describes a broadcast tournament.
type BroadcastTourInfo struct {
	ID          string  `json:"id"`
	Name        string  `json:"name"`
	Slug        string  `json:"slug"`
	URL         string  `json:"url,omitempty"`
	CreatedAt   int64   `json:"createdAt,omitempty"`
	Dates       []int64 `json:"dates,omitempty"`
	Tier        int     `json:"tier,omitempty"`
	Description string  `json:"description,omitempty"`
}

// BroadcastGroupTour is one tournament of a broadcast group.
type BroadcastGroupTour struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Active bool   `json:"active"`
	Live   bool   `json:"live"`
}

// BroadcastGroup is a group of broadcast tournaments (an event with
// several sections), streamed together by StreamBroadcastGroup.
type BroadcastGroup struct {
	ID    string               `json:"id"`
	Slug  string               `json:"slug"`
	Name  string               `json:"name"`
	Tours []BroadcastGroupTour `json:"tours"`
}

// BroadcastRound is /api/broadcast/-/-/{roundId}: the round, its tournament
// and its games (and its group, when the tournament is in one).
type BroadcastRound struct {
	Round BroadcastRoundInfo `json:"round"`
	Tour  BroadcastTourInfo  `json:"tour"`
	Games []BroadcastGame    `json:"games"`
	Group *BroadcastGroup    `json:"group,omitempty"`
}

// BroadcastTour is /api/broadcast/{tourId}: a tournament and its rounds.
// Group is the name of its group, if any.
type BroadcastTour struct {
	Tour           BroadcastTourInfo    `json:"tour"`
	Group          string               `json:"group,omitempty"`
	Rounds         []BroadcastRoundInfo `json:"rounds"`
	DefaultRoundID string               `json:"defaultRoundId,omitempty"`
}

// Over reports whether every round of the tournament is over (false for a
// tournament without rounds).
func (t BroadcastTour) Over() bool {
	for _, r := range t.Rounds {
		if !r.Over() {
			return false
		}
	}
	return len(t.Rounds) > 0
}

// BroadcastGame is one board of a broadcast round. Status is "*", "1-0",
// "0-1" or "½-½".
type BroadcastGame struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	FEN     string `json:"fen"`
	Players []struct {
		Name   string `json:"name"`
		Title  string `json:"title,omitempty"`
		Rating int    `json:"rating,omitempty"`
		FideID int    `json:"fideId,omitempty"`
	} `json:"players"`
	LastMove  string `json:"lastMove"`
	ThinkTime int    `json:"thinkTime,omitempty"`
	Status    string `json:"status"`
}
