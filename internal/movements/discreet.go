package movements

import (
	"slices"

	"github.com/drover-registry/drover/internal/livestock"
)

// animalRules are the rules whose errors say, of one animal, whether it
// is registered, where it is, what it is or when it was born.
var animalRules = []livestock.Code{livestock.CodeDeviceUnknown, livestock.CodeDeviceDead, livestock.CodeDeviceSpecies,
	livestock.CodeDeviceInTransit, livestock.CodeDeviceNotOnSource, livestock.CodeDateBeforeBirth}

// discreet is errs for a submitter who does not act for the source
// holding (a keeper reporting animals moved on from another's holding):
// their errors about single animals become one error about the source
// holding, in the place of the first, so that which of the tags named
// are registered, and where, stays that holding's keeper's business.
// The other errors are about the request itself and stay as they are.
func discreet(errs []livestock.FieldError, t livestock.Transfer) []livestock.FieldError {
	out := make([]livestock.FieldError, 0, len(errs))
	said := false
	for _, e := range errs {
		if !slices.Contains(animalRules, e.Code) {
			out = append(out, e)
			continue
		}
		if !said {
			out = append(out, livestock.FieldError{Code: livestock.CodeDeviceNotOnSource, Source: "/content/sourceHolding",
				Value: t.Source.String(), Message: "not every animal named is registered on " + t.Source.String() +
					" on " + t.TransferDate.String() + " and free to move; its keeper can report the move, or tell you which"})
			said = true
		}
	}
	return out
}
