package lichess

import "context"

// GameChatLines is the chat history request StreamBotGame makes after a
// reconnect, for the contract test: the number of lines.
func (c *Client) GameChatLines(ctx context.Context, gameID string) (int, error) {
	lines, err := c.gameChat(ctx, gameID)
	return len(lines), err
}
