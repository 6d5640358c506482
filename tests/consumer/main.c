/* The installed-package consumer: blends two one-joint poses and checks the hand-computed result. */
#include <stdio.h>
#include <string.h>

#include <tendon/tendon.h>

int main(void)
{
    float ta[3] = {0, 0, 0}, tb[3] = {2, 4, -6}, to[3];
    /* identity and 90° about z: halfway is 45° about z */
    float ra[4] = {0, 0, 0, 1}, rb[4] = {0, 0, 0.70710678f, 0.70710678f}, ro[4];
    float sa[3] = {1, 1, 1}, sb[3] = {3, 3, 3}, so[3];
    tendon_pose a = {ta, ra, sa, 1}, b = {tb, rb, sb, 1}, out = {to, ro, so, 1};
    if (tendon_pose_blend(&a, &b, 0.5, &out) != TENDON_OK) {
        fprintf(stderr, "blend failed: %s\n", tendon_error_message());
        return 1;
    }
    const float want_t[3] = {1, 2, -3}, want_s[3] = {2, 2, 2};
    /* sin(22.5°), cos(22.5°) */
    const double want_r[4] = {0, 0, 0.38268343236508977, 0.92387953251128674};
    int ok = memcmp(to, want_t, sizeof to) == 0 && memcmp(so, want_s, sizeof so) == 0;
    for (int c = 0; c < 4; ++c) {
        const double d = (double)ro[c] - want_r[c];
        ok = ok && d < 1e-7 && d > -1e-7;
    }
    /* a refusal comes back as a status with a message naming the value */
    if (tendon_pose_set_joint(&out, 5, ta, ra, sa) != TENDON_ERR_RANGE ||
        strstr(tendon_error_message(), "joint 5") == NULL)
        ok = 0;
    tendon_isa isa;
    if (tendon_isa_active(&isa) != TENDON_OK)
        ok = 0;
    printf("tendon %s consumer: isa %s, q = (%g, %g, %g, %g): %s\n", tendon_version(),
           tendon_isa_name(isa), ro[0], ro[1], ro[2], ro[3], ok ? "ok" : "WRONG");
    return ok ? 0 : 1;
}
