package benchserver

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"slices"
	"strings"
	"time"
)

// AccessLog reads the server's access log from byte from to byte until
// (the end when until is negative) and returns the
// durations of its 2xx answers under /v1, sorted: the time each admitted
// request spent inside the service, from the first middleware to the last
// byte. Beside the client's latency it tells the queue inside the server
// from the wait for a CPU before it (the load generator shares the
// machine).
func (s *Server) AccessLog(from, until int64) (all, post, get []time.Duration, err error) {
	f, err := os.Open(s.log)
	if err != nil {
		return nil, nil, nil, err
	}
	defer f.Close()
	if _, err := f.Seek(from, io.SeekStart); err != nil {
		return nil, nil, nil, err
	}
	var r io.Reader = f
	if until >= 0 {
		r = io.LimitReader(f, until-from)
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var line struct {
			Msg      string
			Method   string
			Route    string
			Status   int
			Duration float64 // seconds, as drover serve logs a duration
		}
		if json.Unmarshal(sc.Bytes(), &line) != nil || line.Msg != "request" || !strings.HasPrefix(line.Route, "/v1/") {
			continue
		}
		if line.Status >= 200 && line.Status < 300 {
			d := time.Duration(line.Duration * float64(time.Second))
			all = append(all, d)
			if line.Method == "POST" {
				post = append(post, d)
			} else {
				get = append(get, d)
			}
		}
	}
	slices.Sort(all)
	slices.Sort(post)
	slices.Sort(get)
	return all, post, get, sc.Err()
}

// LogSize is where the server's log ends now: a position for AccessLog.
func (s *Server) LogSize() int64 {
	fi, err := os.Stat(s.log)
	if err != nil {
		return 0
	}
	return fi.Size()
}
