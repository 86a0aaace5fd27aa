package rawhttp

import (
	"sync"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// Open offers rate requests a second for du, whatever the answers take:
// the i-th request is due i/rate seconds after the start. A due request
// goes to a connection that is not waiting for an answer; when there is
// none, a new one is opened, up to outstanding; past that the request
// waits for a connection to come free, and is late. The results channel
// is closed when every request sent has been answered or has failed.
func Open(base string, next vegeta.Targeter, rate, outstanding int, du time.Duration) (<-chan *Result, error) {
	addr, err := hostOf(base)
	if err != nil {
		return nil, err
	}
	rate, outstanding = max(rate, 1), max(outstanding, 1)
	results := make(chan *Result, outstanding)
	due := make(chan struct{})
	stopped := make(chan struct{}) // next has no more
	var stop sync.Once
	var wg sync.WaitGroup
	worker := func() {
		c := &conn{addr: addr}
		defer c.close()
		for range due {
			res, ok := c.do(next)
			if !ok {
				stop.Do(func() { close(stopped) })
				return
			}
			results <- res
		}
	}
	go func() {
		defer func() { close(due); wg.Wait(); close(results) }()
		start, workers := time.Now(), 0
		for i := 0; ; i++ {
			at := time.Duration(float64(i) * float64(time.Second) / float64(rate))
			if at >= du {
				return
			}
			if d := time.Until(start.Add(at)); d > 0 {
				time.Sleep(d)
			}
			select {
			case due <- struct{}{}:
				continue
			case <-stopped:
				return
			default:
			}
			if workers < outstanding {
				workers++
				wg.Go(worker)
			}
			select {
			case due <- struct{}{}:
			case <-stopped:
				return
			}
		}
	}()
	return results, nil
}
