package movements

import (
	"context"
	"encoding/json"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// readAhead locks, in one statement, the requests of the jobs claimed
// with job own (store.Tx.JobsAhead), and reads in one statement each the
// animals their transfers and corrections name and which of those are in
// transit. The store keeps what it read for the rest of the group's pass,
// so the later jobs ask the database again only for what changed or was
// absent: on PostgreSQL each such read is a round trip made while the
// group holds the lock on moves. It runs after queueForMoves, in the lock
// order (lockorder.go), and reads nothing when no jobs were claimed ahead.
func (s *Service) readAhead(ctx context.Context, tx store.Tx, own int64) error {
	ahead := tx.JobsAhead()
	if len(ahead) == 0 {
		return nil
	}
	ids := make([]int64, 0, len(ahead)+1)
	ids = append(ids, own)
	for _, j := range ahead {
		var p jobPayload
		if j.Kind == JobKind && json.Unmarshal(j.Payload, &p) == nil && p.RequestID > 0 {
			ids = append(ids, p.RequestID)
		}
	}
	if len(ids) < 2 {
		return nil
	}
	if err := tx.LockRequests(ctx, ids); err != nil {
		return err
	}
	var tags []string
	for _, id := range ids {
		req, err := tx.LockRequest(ctx, id)
		if err != nil || req.Status != store.StatusPending ||
			(req.Type != store.RequestTransfer && req.Type != store.RequestCorrection) {
			continue // its own job finds out, as it would have
		}
		tags = appendTags(tags, req.Content)
	}
	if len(tags) == 0 {
		return nil
	}
	animals, err := tx.Animals(ctx, tags)
	if err != nil {
		return err
	}
	tags = tags[:0]
	for tag := range animals {
		tags = append(tags, tag)
	}
	_, err = tx.InTransit(ctx, tags)
	return err
}

// storedTags is what readAhead reads of a stored transfer's content (its
// normalised model): the species and the devices' tag numbers, not the
// whole transfer, which its job decodes anyway. A tag missed here costs
// only the read it would have saved.
type storedTags struct {
	Species        string `json:"species"`
	MovementGroups []struct {
		Devices           []deviceModel `json:"devices"`
		DevicesWithDetail []struct {
			Device deviceModel `json:"device"`
		} `json:"devicesWithDetail"`
	} `json:"movementGroups"`
}

// appendTags appends to tags the identifiers the transfer in content
// names by tag number, as transferFacts asks for them.
func appendTags(tags []string, content []byte) []string {
	var in storedTags
	if json.Unmarshal(content, &in) != nil {
		return tags
	}
	species, err := livestock.ParseMovementSpecies(in.Species)
	if err != nil {
		return tags
	}
	add := func(d deviceModel) {
		if d.TagNumber == nil {
			return
		}
		if tag, err := livestock.ParseTag(species, *d.TagNumber); err == nil && !tag.IsZero() {
			tags = append(tags, tag.String())
		}
	}
	for _, g := range in.MovementGroups {
		for _, d := range g.Devices {
			add(d)
		}
		for _, d := range g.DevicesWithDetail {
			add(d.Device)
		}
	}
	return tags
}
