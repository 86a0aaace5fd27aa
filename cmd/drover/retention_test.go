package main

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"
)

// TestRetentionSettings reads --reply-retention and --job-retention from
// the flag or the environment, keeps a week by default, and refuses a
// negative period.
func TestRetentionSettings(t *testing.T) {
	t.Parallel()
	for _, setting := range []struct {
		flag, env string
		value     func(*config) time.Duration
	}{
		{"reply-retention", "DROVER_REPLY_RETENTION", func(c *config) time.Duration { return c.ReplyRetention }},
		{"job-retention", "DROVER_JOB_RETENTION", func(c *config) time.Duration { return c.JobRetention }},
	} {
		tests := []struct {
			env  string
			args []string
			want time.Duration
		}{
			{"", nil, 7 * 24 * time.Hour},
			{"36h", nil, 36 * time.Hour},
			{"36h", []string{"--" + setting.flag, "0"}, 0},
		}
		for _, tt := range tests {
			var c config
			getenv := func(k string) string {
				if k == setting.env {
					return tt.env
				}
				return ""
			}
			if err := parse(serveFlags(&c), tt.args, getenv, io.Discard); err != nil || setting.value(&c) != tt.want {
				t.Errorf("%s: env %q, args %q: retention %v, %v; want %v", setting.flag, tt.env, tt.args, setting.value(&c), err, tt.want)
			}
		}
		err := run(context.Background(), []string{"serve", "--" + setting.flag, "-1h", "--database", t.TempDir() + "/d.db"},
			func(string) string { return "" }, io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), "--"+setting.flag) {
			t.Errorf("serve --%s -1h = %v, want an error naming the flag", setting.flag, err)
		}
	}
}
