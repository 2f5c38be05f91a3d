package chesscom

// Decodes is the number of response bodies the client decoded (tests: a 304
// decodes nothing).
func (c *Client) Decodes() int64 { return c.decodes.Load() }

// Sent is the number of HTTP requests the client sent.
func (c *Client) Sent() int64 { return c.requests.Load() }

// Waiting is the number of calls queued behind the request in flight.
func (c *Client) Waiting() int64 { return c.waiting.Load() }
