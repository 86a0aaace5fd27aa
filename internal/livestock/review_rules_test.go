package livestock

import (
	"slices"
	"testing"
)

func TestCheckReview(t *testing.T) {
	t.Parallel()
	tag := func(s string) Tag {
		tg, err := ParseTag(SpeciesSheep, s)
		if err != nil {
			t.Fatal(err)
		}
		return tg
	}
	m := ReviewedMovement{
		TransferDate: mustDate(t, "2026-11-20"),
		Devices:      []string{"UK0130181 00001", "UK0130181 00002", "UK0130181 00003"},
		Batches:      []BatchLine{{Number: mustBatch(t, "UK130181"), Total: 10}},
		BatchIDs:     []int64{77},
	}
	today := mustDate(t, "2026-11-22")
	ok := func(n int) Review {
		return Review{IsAccepted: true, ArrivalDate: mustDate(t, "2026-11-21"), AnimalTotal: n, TotalGiven: true}
	}
	for _, tc := range []struct {
		name   string
		r      Review
		errs   []Code
		in     int
		tagOut string // a tag that must not be accepted
	}{
		{"accept all", ok(13), nil, 13, ""},
		{"reject all", Review{IsAccepted: false, ArrivalDate: mustDate(t, "2026-11-21")}, nil, 0, "UK0130181 00001"},
		{"reject one device", func() Review { r := ok(12); r.RejectedDevices = []Tag{tag("UK0130181 00002")}; return r }(), nil, 12, "UK0130181 00002"},
		{"reject part of a batch", func() Review {
			r := ok(9)
			r.RejectedBatches = []ReviewBatch{{Number: mustBatch(t, "UK130181"), HasNumber: true, Total: 4}}
			return r
		}(), nil, 9, ""},
		{"reject part of a batch line by its batchMovementId", func() Review {
			r := ok(9)
			r.RejectedBatches = []ReviewBatch{{ID: 77, Total: 4}}
			return r
		}(), nil, 9, ""},
		{"reject a whole batch line: no animalTotal", func() Review {
			r := ok(3)
			r.RejectedBatches = []ReviewBatch{{ID: 77, Number: mustBatch(t, "UK130181"), HasNumber: true, Whole: true}}
			return r
		}(), nil, 3, ""},
		{"accept a batch line by id", func() Review {
			r := ok(13)
			r.AcceptedBatches = []ReviewBatch{{ID: 77, Total: 10}}
			return r
		}(), nil, 13, ""},
		{"accept part of a batch line: the rest is rejected", func() Review {
			r := ok(7)
			r.AcceptedBatches = []ReviewBatch{{ID: 77, Total: 4}}
			return r
		}(), nil, 7, ""},
		{"accept part of a batch by number, counted whole", func() Review {
			r := ok(13)
			r.AcceptedBatches = []ReviewBatch{{Number: mustBatch(t, "UK130181"), HasNumber: true, Total: 4}}
			return r
		}(), []Code{CodeReviewTotal}, 0, ""},
		{"a tag accepted twice", func() Review {
			r := ok(13)
			r.AcceptedDevices = []Tag{tag("UK0130181 00001"), tag("UK0130181 00001")}
			return r
		}(), []Code{CodeDeviceRepeated}, 0, ""},
		{"a tag rejected twice", func() Review {
			r := ok(12)
			r.RejectedDevices = []Tag{tag("UK0130181 00002"), tag("UK0130181 00002")}
			return r
		}(), []Code{CodeDeviceRepeated}, 0, ""},
		{"batchMovementId not in the movement", func() Review {
			r := ok(13)
			r.AcceptedBatches = []ReviewBatch{{ID: 78, Total: 10}}
			return r
		}(), []Code{CodeReviewDevice}, 0, ""},
		{"batchMovementId named twice", func() Review {
			r := ok(13)
			r.AcceptedBatches = []ReviewBatch{{ID: 77, Whole: true}}
			r.RejectedBatches = []ReviewBatch{{ID: 77, Whole: true}}
			return r
		}(), []Code{CodeBatchLineTwice}, 0, ""},
		{"batchMovementId and batchNumber disagree", func() Review {
			r := ok(13)
			r.AcceptedBatches = []ReviewBatch{{ID: 77, Number: mustBatch(t, "UK130182"), HasNumber: true, Total: 10}}
			return r
		}(), []Code{CodeReviewDevice}, 0, ""},
		{"wrong total", ok(12), []Code{CodeReviewTotal}, 0, ""},
		{"no total", func() Review {
			r := ok(0)
			r.TotalGiven = false
			r.RejectedDevices = []Tag{tag("UK0130181 00002")}
			return r
		}(), nil, 12, "UK0130181 00002"},
		{"tag not in movement", func() Review { r := ok(13); r.RejectedDevices = []Tag{tag("UK0130181 00009")}; return r }(), []Code{CodeReviewDevice}, 0, ""},
		{"batch not in movement", func() Review {
			r := ok(13)
			r.AcceptedBatches = []ReviewBatch{{Number: mustBatch(t, "UK130182"), HasNumber: true, Total: 1}}
			return r
		}(), []Code{CodeReviewDevice}, 0, ""},
		{"arrival before transfer", func() Review { r := ok(13); r.ArrivalDate = mustDate(t, "2026-11-19"); return r }(), []Code{CodeArrivalBefore}, 0, ""},
		{"arrival in the future", func() Review { r := ok(13); r.ArrivalDate = mustDate(t, "2026-11-23"); return r }(), []Code{CodeJourneyLong, CodeDateFuture}, 0, ""},
		{"arrival the day after", func() Review { r := ok(13); r.ArrivalDate = mustDate(t, "2026-11-21"); return r }(), nil, 13, ""},
		{"arrival two days after", func() Review { r := ok(13); r.ArrivalDate = mustDate(t, "2026-11-22"); return r }(), []Code{CodeJourneyLong}, 0, ""},
	} {
		out, errs := CheckReview(tc.r, m, today)
		if got := codesOf(errs); !slices.Equal(got, tc.errs) {
			t.Errorf("%s: errors %v, want %v (%v)", tc.name, got, tc.errs, errs)
			continue
		}
		if errs != nil {
			continue
		}
		if out.AnimalsIn != tc.in {
			t.Errorf("%s: %d animals in, want %d", tc.name, out.AnimalsIn, tc.in)
		}
		if tc.tagOut != "" && out.Accepted[tc.tagOut] {
			t.Errorf("%s: %s accepted", tc.name, tc.tagOut)
		}
	}
}
