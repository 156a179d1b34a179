/* Allocation flags. */
#ifndef CGWB_GFP_H
#define CGWB_GFP_H

#include <cgwb/types.h>

#define __GFP_DIRECT_RECLAIM 0x01u /* may sleep and reclaim */
#define __GFP_IO 0x02u             /* reclaim may start IO */
#define __GFP_FS 0x04u             /* reclaim may call into filesystems */
#define __GFP_HIGH 0x08u           /* may dip into the emergency reserve */
#define __GFP_ZERO 0x10u
#define __GFP_NOWARN 0x20u
#define __GFP_NOFAIL 0x40u

#define GFP_ATOMIC (__GFP_HIGH)
#define GFP_NOWAIT 0u
#define GFP_NOIO (__GFP_DIRECT_RECLAIM)
#define GFP_NOFS (__GFP_DIRECT_RECLAIM | __GFP_IO)
#define GFP_KERNEL (__GFP_DIRECT_RECLAIM | __GFP_IO | __GFP_FS)

static inline bool gfpflags_allow_blocking(gfp_t gfp)
{
	return gfp & __GFP_DIRECT_RECLAIM;
}

#endif
