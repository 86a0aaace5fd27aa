package main

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"
)

// TestReplyRetentionSetting reads --reply-retention from the flag or the
// environment, keeps a week by default, and refuses a negative period.
func TestReplyRetentionSetting(t *testing.T) {
	t.Parallel()
	tests := []struct {
		env  string
		args []string
		want time.Duration
	}{
		{"", nil, 7 * 24 * time.Hour},
		{"36h", nil, 36 * time.Hour},
		{"36h", []string{"--reply-retention", "0"}, 0},
	}
	for _, tt := range tests {
		var c config
		getenv := func(k string) string {
			if k == "DROVER_REPLY_RETENTION" {
				return tt.env
			}
			return ""
		}
		if err := parse(serveFlags(&c), tt.args, getenv, io.Discard); err != nil || c.ReplyRetention != tt.want {
			t.Errorf("env %q, args %q: retention %v, %v; want %v", tt.env, tt.args, c.ReplyRetention, err, tt.want)
		}
	}
	err := run(context.Background(), []string{"serve", "--reply-retention", "-1h", "--database", t.TempDir() + "/d.db"},
		func(string) string { return "" }, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "--reply-retention") {
		t.Errorf("serve --reply-retention -1h = %v, want an error naming the flag", err)
	}
}
