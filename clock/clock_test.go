package clock

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"
)

func TestSleep(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name string
		ctx  context.Context
		d    time.Duration
		want error
	}{
		{name: "zero wait", ctx: context.Background(), d: 0, want: nil},
		{name: "negative wait", ctx: context.Background(), d: -time.Second, want: nil},
		{name: "cancelled before", ctx: cancelled, d: time.Hour, want: context.Canceled},
		{name: "zero wait cancelled", ctx: cancelled, d: 0, want: context.Canceled},
		{name: "whole wait", ctx: context.Background(), d: time.Hour, want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := NewAutoFake(time.Time{})
			if err := Sleep(tt.ctx, f, tt.d); !errors.Is(err, tt.want) {
				t.Fatalf("Sleep = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestSleepCancelledWhileWaiting(t *testing.T) {
	f := NewFake(time.Time{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Sleep(ctx, f, time.Minute) }()
	if err := f.WaitTimers(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Sleep = %v, want context.Canceled", err)
	}
	if n := f.Timers(); n != 0 {
		t.Errorf("%d timers left after a cancelled sleep", n)
	}
}

func TestFakeAdvanceFiresInOrder(t *testing.T) {
	f := NewFake(time.Time{})
	late, early, never := f.NewTimer(3*time.Second), f.NewTimer(time.Second), f.NewTimer(time.Hour)
	if d, ok := f.Next(); !ok || d != time.Second {
		t.Fatalf("Next = %v %v, want 1s", d, ok)
	}
	f.Advance(5 * time.Second)
	if at := <-early.C(); !at.Equal(Epoch.Add(time.Second)) {
		t.Errorf("early fired at %v", at)
	}
	if at := <-late.C(); !at.Equal(Epoch.Add(3 * time.Second)) {
		t.Errorf("late fired at %v", at)
	}
	select {
	case <-never.C():
		t.Error("a timer due in an hour fired after 5s")
	default:
	}
	if got := f.Now(); !got.Equal(Epoch.Add(5 * time.Second)) {
		t.Errorf("Now = %v after Advance(5s)", got)
	}
	if !never.Stop() || never.Stop() {
		t.Error("Stop: true once for a waiting timer, then false")
	}
}

func TestFakeResetDrainsAndRearms(t *testing.T) {
	f := NewFake(time.Time{})
	tm := f.NewTimer(time.Second)
	f.Advance(time.Second) // fired, not received
	if tm.Reset(2 * time.Second) {
		t.Error("Reset of a fired timer reported it was waiting")
	}
	select {
	case <-tm.C():
		t.Fatal("Reset kept the value of the earlier firing")
	default:
	}
	f.Advance(time.Second)
	select {
	case <-tm.C():
		t.Fatal("fired a second early")
	default:
	}
	f.Advance(time.Second)
	<-tm.C()
	if got, want := f.Waits(), []time.Duration{time.Second, 2 * time.Second}; !slices.Equal(got, want) {
		t.Errorf("Waits = %v, want %v", got, want)
	}
}

func TestAutoFakeJumps(t *testing.T) {
	f := NewAutoFake(time.Time{})
	for _, d := range []time.Duration{time.Second, time.Minute} {
		if err := Sleep(context.Background(), f, d); err != nil {
			t.Fatal(err)
		}
	}
	if got := f.Now(); !got.Equal(Epoch.Add(time.Minute + time.Second)) {
		t.Errorf("Now = %v, want Epoch+61s", got)
	}
	if got := f.Waits(); !slices.Equal(got, []time.Duration{time.Second, time.Minute}) {
		t.Errorf("Waits = %v", got)
	}
}

func TestFakeStep(t *testing.T) {
	f := NewFake(time.Time{})
	f.SetStep(time.Second)
	a, b := f.Now(), f.Now()
	if b.Sub(a) != time.Second || !a.Equal(Epoch.Add(time.Second)) {
		t.Errorf("readings %v, %v: want one second apart from Epoch+1s", a, b)
	}
}

func TestFakeNextWaitAndWaitTimer(t *testing.T) {
	f := NewFake(time.Time{})
	ctx := context.Background()
	go func() {
		_ = Sleep(ctx, f, time.Second)
		_ = Sleep(ctx, f, 7*time.Second)
	}()
	if d, err := f.NextWait(ctx); err != nil || d != time.Second {
		t.Fatalf("first wait %v %v", d, err)
	}
	if err := f.WaitTimer(ctx, time.Second); err != nil {
		t.Fatal(err)
	}
	f.Advance(time.Second)
	if d, err := f.NextWait(ctx); err != nil || d != 7*time.Second {
		t.Fatalf("second wait %v %v", d, err)
	}
	f.Advance(7 * time.Second)
	if err := f.WaitFor(ctx, func() bool { return f.Timers() == 0 }); err != nil {
		t.Fatal(err)
	}
}

func TestRealTimerFires(t *testing.T) {
	tm := Or(nil).NewTimer(time.Millisecond)
	<-tm.C() // a hang, not a timing assertion, if it never fires
	if tm.Stop() {
		t.Error("Stop of a fired real timer reported it was waiting")
	}
}

func ExampleFake() {
	f := NewFake(time.Time{})
	done := make(chan error)
	go func() { done <- Sleep(context.Background(), f, time.Minute) }()
	_ = f.WaitTimers(context.Background(), 1) // the sleeper is waiting
	f.Advance(time.Minute)
	fmt.Println(<-done, f.Now().Sub(Epoch))
	// Output: <nil> 1m0s
}

func TestFakeTicker(t *testing.T) {
	f := NewFake(time.Time{})
	tk := f.NewTicker(10 * time.Second)
	f.Advance(9 * time.Second)
	select {
	case <-tk.C():
		t.Fatal("ticked early")
	default:
	}
	f.Advance(time.Second)
	if at := <-tk.C(); !at.Equal(Epoch.Add(10 * time.Second)) {
		t.Errorf("first tick at %v", at)
	}
	f.Advance(35 * time.Second) // three ticks due; the channel keeps one, as time.Ticker's does
	if at := <-tk.C(); !at.Equal(Epoch.Add(20 * time.Second)) {
		t.Errorf("kept tick at %v, want the first one missed", at)
	}
	select {
	case <-tk.C():
		t.Fatal("missed ticks were queued")
	default:
	}
	if d, ok := f.Next(); !ok || d != 5*time.Second {
		t.Errorf("next tick in %v %v, want 5s", d, ok)
	}
	tk.Reset(time.Minute)
	if d, _ := f.Next(); d != time.Minute {
		t.Errorf("after Reset the next tick is in %v", d)
	}
	tk.Stop()
	if f.Timers() != 0 {
		t.Error("a stopped ticker still waits")
	}
}

func TestRealTicker(t *testing.T) {
	tk := Real.NewTicker(time.Millisecond)
	defer tk.Stop()
	<-tk.C() // a hang, not a timing assertion, if it never ticks
	tk.Reset(time.Hour)
}

func TestScaled(t *testing.T) {
	c := NewScaled(time.Unix(1000, 0), 50)
	if RateOf(c) != 50 || RateOf(Real) != 1 {
		t.Fatalf("RateOf: %v %v", RateOf(c), RateOf(Real))
	}
	if got := RealDuration(c, 5*time.Second); got != 100*time.Millisecond {
		t.Fatalf("RealDuration %v", got)
	}
	before, realBefore := c.Now(), time.Now()
	tm := c.NewTimer(5 * time.Second) // 100 ms of real time
	at := <-tm.C()
	if real := time.Since(realBefore); real < 100*time.Millisecond {
		t.Fatalf("a 5 s timer at rate 50 fired after %v of real time", real)
	}
	if at.Sub(before) < 5*time.Second {
		t.Fatalf("the timer fired at %v on the clock, %v after it was set", at, at.Sub(before))
	}
	if tm.Stop() {
		t.Error("Stop of a fired timer reported true")
	}
}

func TestScaledTicker(t *testing.T) {
	c := NewScaled(time.Unix(1000, 0), 100)
	start := c.Now()
	tk := c.NewTicker(time.Second) // 10 ms of real time
	defer tk.Stop()
	for range 2 {
		if at := <-tk.C(); at.Sub(start) < time.Second {
			t.Errorf("a tick %v after the start, before one period on the clock", at.Sub(start))
		}
	}
}
