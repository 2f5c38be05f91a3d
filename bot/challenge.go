package bot

import (
	"strings"
	"time"

	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/rules"
)

// ChallengeDecision is the answer to a challenge: accept, or decline with
// one of Lichess's reason keys (lichess.Decline*).
type ChallengeDecision struct {
	Accept bool
	Reason string // decline reason key; "" when accepted
	Why    string // for the log
}

// DecideChallenge applies the challenge policy to an incoming challenge.
// running is the number of games in progress or accepted and not yet
// started; stopping is true once the bot has been told to stop.
func (c ChallengeConfig) DecideChallenge(ch *lichess.Challenge, running int, stopping bool) ChallengeDecision {
	decline := func(reason, why string) ChallengeDecision {
		return ChallengeDecision{Reason: reason, Why: why}
	}
	if ch == nil {
		return decline(lichess.DeclineGeneric, "no challenge")
	}
	who := ""
	isBot := false
	if ch.Challenger != nil {
		who = strings.ToLower(ch.Challenger.ID)
		if who == "" {
			who = strings.ToLower(ch.Challenger.Name)
		}
		isBot = ch.Challenger.Title == "BOT"
	}
	if stopping {
		return decline(lichess.DeclineLater, "the bot is stopping")
	}
	if containsFold(c.Block, who) {
		return decline(lichess.DeclineGeneric, "challenger is on the block list")
	}
	if len(c.Allow) > 0 && !containsFold(c.Allow, who) {
		return decline(lichess.DeclineGeneric, "challenger is not on the allow list")
	}
	if isBot && !c.Bots {
		return decline(lichess.DeclineNoBot, "bots are not accepted")
	}
	if !isBot && !c.Humans {
		return decline(lichess.DeclineOnlyBot, "humans are not accepted")
	}
	variant := ch.Variant.Key
	if !containsFold(c.Variants, variant) {
		if len(c.Variants) == 1 && strings.EqualFold(c.Variants[0], "standard") {
			return decline(lichess.DeclineStandard, "variant "+variant+" is not accepted (standard only)")
		}
		return decline(lichess.DeclineVariant, "variant "+variant+" is not accepted")
	}
	if (variant == "fromPosition" || variant == "chess960") && ch.InitialFEN != "" {
		fen, err := lichess.StartFENVariant(ch.InitialFEN, variant)
		if err == nil {
			_, err = rules.ParseStart(fen)
		}
		if err != nil {
			return decline(lichess.DeclineVariant, "initial position does not parse: "+err.Error())
		}
	}
	switch ch.TimeControl.Type {
	case "clock":
		base := time.Duration(ch.TimeControl.Limit) * time.Second
		inc := time.Duration(ch.TimeControl.Increment) * time.Second
		switch {
		case base < c.MinBase:
			return decline(lichess.DeclineTooFast, "initial time "+base.String()+" below "+c.MinBase.String())
		case c.MaxBase > 0 && base > c.MaxBase:
			return decline(lichess.DeclineTooSlow, "initial time "+base.String()+" above "+c.MaxBase.String())
		case inc < c.MinIncrement:
			return decline(lichess.DeclineTooFast, "increment "+inc.String()+" below "+c.MinIncrement.String())
		case c.MaxIncrement > 0 && inc > c.MaxIncrement:
			return decline(lichess.DeclineTooSlow, "increment "+inc.String()+" above "+c.MaxIncrement.String())
		}
	case "correspondence", "unlimited":
		if !c.Correspondence {
			return decline(lichess.DeclineTimeControl, "correspondence and unlimited games are not accepted")
		}
	default:
		return decline(lichess.DeclineTimeControl, "unknown time control "+ch.TimeControl.Type)
	}
	if ch.Rated && !c.Rated {
		return decline(lichess.DeclineCasual, "rated games are not accepted")
	}
	if !ch.Rated && !c.Casual {
		return decline(lichess.DeclineRated, "casual games are not accepted")
	}
	if running >= c.MaxGames {
		return decline(lichess.DeclineLater, "already playing the maximum number of games")
	}
	return ChallengeDecision{Accept: true, Why: "policy allows it"}
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(strings.TrimSpace(x), s) {
			return true
		}
	}
	return false
}
