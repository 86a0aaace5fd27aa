package livestock

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"testing"
)

func TestLiveCode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		e    Endpoint
		c    Code
		want string
	}{
		{EndpointTransfer, CodeDuplicateTrack, "25"},
		{EndpointTransfer, CodeUnknownField, "31000"},
		{EndpointTransfer, CodeDeviceUnknown, "4053"},
		{EndpointReview, CodeDeviceUnknown, "21381"}, // the review catalogue's own code for the same rule
		{EndpointCorrection, CodeTargetUnknown, "4075"},
		{EndpointUndo, CodeTargetUnknown, "403"},
		{EndpointUndo, CodeNoEnvelope, "14003"},
		{EndpointTransfer, CodeNoEnvelope, "30072"},
		{EndpointTransfer, CodeStandstill, "W001"}, // no live code: Drover's
		{EndpointTransfer, CodeDateFuture, "V019"}, // live has one for reviews only
		{EndpointReview, CodeDateFuture, "21500"},
		{EndpointTransfer, CodeForbidden, "4038"}, // not (or no longer) acting for userHolding
		{EndpointCorrection, CodeForbidden, "4038"},
		{EndpointReview, CodeForbidden, "30003"},
		{EndpointUndo, CodeForbidden, "A002"}, // the undo catalogue has no such rule
	}
	for _, tc := range tests {
		if got := LiveCode(tc.e, tc.c); got != tc.want {
			t.Errorf("LiveCode(%s, %s) = %q, want %q", tc.e, tc.c, got, tc.want)
		}
	}
}

func TestFieldErrorLiveCode(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		f    FieldError
		want string
	}{
		{FieldError{Code: CodeBadFormat, Source: "query:$top"}, "31003"}, // any refused query option
		{FieldError{Code: CodeBadFormat, Source: "/content/transferDate"}, "30059"},
		{FieldError{Code: CodeBadFormat, Source: "query:holding"}, "30059"},
	} {
		if got := tc.f.LiveCode(EndpointTransfer); got != tc.want {
			t.Errorf("%+v.LiveCode = %q, want %q", tc.f, got, tc.want)
		}
	}
	// UndoRequests has its own code for a trackingId too long, and no 30061.
	long := FieldError{Code: CodeBadLength, Source: "/content/trackingId"}
	if got := long.LiveCode(EndpointUndo); got != "41" {
		t.Errorf("undo's long trackingId: %q, want 41", got)
	}
	if got := long.LiveCode(EndpointTransfer); got != "30061" {
		t.Errorf("transfer's long trackingId: %q, want 30061", got)
	}
}

func TestTarget(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"":                                    "",
		"/content/movementGroups/0/devices/1": "content.movementGroups[0].devices[1]",
		"/content/trackingId":                 "content.trackingId",
		"/content/a~1b/c~0d":                  "content.a/b.c~d",
		"/0":                                  "0",
		"/content/01":                         "content.01",
		"query:$filter":                       "$filter",
		"path:requestId":                      "requestId",
		"header:X-Correlation-ID":             "X-Correlation-ID",
		"method":                              "method",
	} {
		if got := Target(in); got != want {
			t.Errorf("Target(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestLiveCodesInCatalogue checks every live code of the table against
// the live error catalogue: a code given for an endpoint is in that
// endpoint's file, a default code in at least one file.
func TestLiveCodesInCatalogue(t *testing.T) {
	t.Parallel()
	dir := catalogueDir(t)
	byEndpoint := map[Endpoint]map[string]bool{}
	all := map[string]bool{}
	files, _ := filepath.Glob(filepath.Join(dir, "*.csv"))
	for _, f := range files {
		b, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		r := csv.NewReader(b)
		r.FieldsPerRecord = -1
		rows, err := r.ReadAll()
		_ = b.Close()
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		e := Endpoint(filepath.Base(f[:len(f)-len(".csv")]))
		byEndpoint[e] = map[string]bool{}
		for _, row := range rows {
			if len(row) > 1 && row[1] != "" {
				byEndpoint[e][row[1]], all[row[1]] = true, true
			}
		}
	}
	for c, live := range liveCodes {
		if !all[live] {
			t.Errorf("%s maps to %s, which no catalogue in %s has", c, live, dir)
		}
	}
	for e, codes := range endpointCodes {
		for c, live := range codes {
			if !byEndpoint[e][live] {
				t.Errorf("%s on %s maps to %s, which %s.csv does not have", c, e, live, e)
			}
		}
	}
	for e, rules := range fieldCodes {
		for r, live := range rules {
			if !byEndpoint[e][live] {
				t.Errorf("%s at %s on %s maps to %s, which %s.csv does not have", r.code, r.path, e, live, e)
			}
		}
	}
	if !byEndpoint[EndpointTransfer][liveUnknownSpecies] {
		t.Errorf("%s is not in TransferRequests.csv", liveUnknownSpecies)
	}
}

// TestFieldCodes: a field's own live code applies at any index of its
// arrays and on its endpoints only; an empty holding is a missing one.
func TestFieldCodes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		e    Endpoint
		f    FieldError
		want string
	}{
		{EndpointTransfer, FieldError{Code: CodeBadFormat, Source: "/content/movementGroups/3/batches/12/batchNumber"}, "30010"},
		{EndpointCorrection, FieldError{Code: CodeBadFormat, Source: "/content/movementGroups/0/devices/0/rfid"}, "3027"},
		{EndpointReview, FieldError{Code: CodeBadFormat, Source: "/content/movementGroups/0/devices/0/rfid"}, "30059"},
		{EndpointTransfer, FieldError{Code: CodeBadFormat, Source: "/content/sourceHolding", Value: "01-100-0257"}, "30001"},
		{EndpointTransfer, FieldError{Code: CodeBadFormat, Source: "/content/sourceHolding", Value: ""}, "30000"},
		{EndpointTransfer, FieldError{Code: CodeBadEnum, Source: "/content/species", Value: "Unknown"}, "4042"},
		{EndpointTransfer, FieldError{Code: CodeBadEnum, Source: "/content/species", Value: "Llama"}, "30060"},
		{EndpointTransfer, FieldError{Code: CodeHoldingType, Source: "/content/sourceHolding"}, "4070"},
		{EndpointTransfer, FieldError{Code: CodeHoldingType, Source: "/content/destinationHolding"}, "30015"},
		{EndpointUndo, FieldError{Code: CodeBadLength, Source: "/content/trackingId"}, "41"},
		{EndpointTransfer, FieldError{Code: CodeBadLength, Source: "/content/trackingId"}, "30061"},
		{EndpointTransfer, FieldError{Code: CodeBadFormat, Source: "query:$top"}, "31003"},
	} {
		if got := tc.f.LiveCode(tc.e); got != tc.want {
			t.Errorf("%s %s at %s (%q) = %s, want %s", tc.e, tc.f.Code, tc.f.Source, tc.f.Value, got, tc.want)
		}
	}
}

// catalogueDir finds the live error catalogue (shared/spec/live/cla-errors
// beside or above the repository), or skips the test saying so.
func catalogueDir(t *testing.T) string {
	if d := os.Getenv("DROVER_LIVE_SPEC"); d != "" {
		return filepath.Join(d, "cla-errors")
	}
	wd, _ := os.Getwd()
	for d := wd; ; d = filepath.Dir(d) {
		c := filepath.Join(d, "shared", "spec", "live", "cla-errors")
		if _, err := os.Stat(c); err == nil {
			return c
		}
		if filepath.Dir(d) == d {
			t.Skip("the live error catalogue (shared/spec/live/cla-errors) is not beside the repository; set DROVER_LIVE_SPEC to its spec/live directory")
			return ""
		}
	}
}
