/*
 * The seed's chain roots, TENDON_SPRING_LOOKBACK_SEED (src/spring.c, seed_cascade_root):
 * entry n − 1 is the root x of e^(−x)·Σ_{k<n} x^k/k! = 1e-3 for a chain of n links as the
 * seed's 64 bisections find it, bit for bit. Made by the bisection itself:
 *   build/tests/test_spring_seed_roots --print-table > src/common/spring_seed_roots.h
 * and checked entry by entry by that suite. Do not edit by hand.
 */
#ifndef TENDON_SPRING_SEED_ROOTS_H
#define TENDON_SPRING_SEED_ROOTS_H

#define TENDON_SPRING_SEED_ROOTS 128

static const double tendon_spring_seed_roots[TENDON_SPRING_SEED_ROOTS] = {
    0x1.ba18a998fffa1p+2, /* 1 */
    0x1.27781f89f9c47p+3, /* 2 */
    0x1.6752ebe183fc8p+3, /* 3 */
    0x1.a1fde05fe2e3fp+3, /* 4 */
    0x1.d969aba15e1dep+3, /* 5 */
    0x1.0746a2e81d1a5p+4, /* 6 */
    0x1.20fc76e94e24p+4, /* 7 */
    0x1.3a04d296aab76p+4, /* 8 */
    0x1.527fc9a5dfa59p+4, /* 9 */
    0x1.6a8499dffb048p+4, /* 10 */
    0x1.8224beed82d1cp+4, /* 11 */
    0x1.996dc4abe7cb3p+4, /* 12 */
    0x1.b06a6b41bc784p+4, /* 13 */
    0x1.c72366863937dp+4, /* 14 */
    0x1.dd9fe02d9417bp+4, /* 15 */
    0x1.f3e5d31ae176fp+4, /* 16 */
    0x1.04fd2692f6fdep+5, /* 17 */
    0x1.0ff0cfc83b688p+5, /* 18 */
    0x1.1acfc1b7b4bc9p+5, /* 19 */
    0x1.259b9ac079caap+5, /* 20 */
    0x1.3055c5e428c8dp+5, /* 21 */
    0x1.3aff83477c048p+5, /* 22 */
    0x1.4599eef82fa3p+5, /* 23 */
    0x1.5026066194371p+5, /* 24 */
    0x1.5aa4acbcbded1p+5, /* 25 */
    0x1.6516aeb553aaep+5, /* 26 */
    0x1.6f7cc56dcf661p+5, /* 27 */
    0x1.79d79903bcdb8p+5, /* 28 */
    0x1.8427c2acfd395p+5, /* 29 */
    0x1.8e6dce8180361p+5, /* 30 */
    0x1.98aa3d00b1385p+5, /* 31 */
    0x1.a2dd845ea83b5p+5, /* 32 */
    0x1.ad0811a2bd7ap+5, /* 33 */
    0x1.b72a499f3bbabp+5, /* 34 */
    0x1.c14489c8741a3p+5, /* 35 */
    0x1.cb5728f04db89p+5, /* 36 */
    0x1.d56277ea80ba4p+5, /* 37 */
    0x1.df66c21cf0929p+5, /* 38 */
    0x1.e9644dff02f0ep+5, /* 39 */
    0x1.f35b5d8a56e91p+5, /* 40 */
    0x1.fd4c2e9edcefep+5, /* 41 */
    0x1.039b7dadffa75p+6, /* 42 */
    0x1.088dfd382412cp+6, /* 43 */
    0x1.0d7dafb05d8ccp+6, /* 44 */
    0x1.126aad6475924p+6, /* 45 */
    0x1.17550d4a57785p+6, /* 46 */
    0x1.1c3ce51a1b23ep+6, /* 47 */
    0x1.212249659427ap+6, /* 48 */
    0x1.26054dadadd59p+6, /* 49 */
    0x1.2ae60475d3378p+6, /* 50 */
    0x1.2fc47f5599bddp+6, /* 51 */
    0x1.34a0cf08de7a7p+6, /* 52 */
    0x1.397b037e7fcaap+6, /* 53 */
    0x1.3e532be5d8332p+6, /* 54 */
    0x1.432956bb1ac83p+6, /* 55 */
    0x1.47fd91d2adad3p+6, /* 56 */
    0x1.4ccfea639be8fp+6, /* 57 */
    0x1.51a06d1134ee1p+6, /* 58 */
    0x1.566f25f3edb63p+6, /* 59 */
    0x1.5b3c20a19521dp+6, /* 60 */
    0x1.60076834eb63p+6, /* 61 */
    0x1.64d10754aa8f4p+6, /* 62 */
    0x1.6999083a0cf7fp+6, /* 63 */
    0x1.6e5f74b6dc9fbp+6, /* 64 */
    0x1.7324563b15fa5p+6, /* 65 */
    0x1.77e7b5da2723cp+6, /* 66 */
    0x1.7ca99c4fd3d13p+6, /* 67 */
    0x1.816a1204c5758p+6, /* 68 */
    0x1.86291f12ce5a4p+6, /* 69 */
    0x1.8ae6cb48e5ccp+6, /* 70 */
    0x1.8fa31e2ee2e95p+6, /* 71 */
    0x1.945e1f08fb1f8p+6, /* 72 */
    0x1.9917d4db08edbp+6, /* 73 */
    0x1.9dd0466b9f1dbp+6, /* 74 */
    0x1.a2877a46ec44fp+6, /* 75 */
    0x1.a73d76c172095p+6, /* 76 */
    0x1.abf241fa935c8p+6, /* 77 */
    0x1.b0a5e1defc98fp+6, /* 78 */
    0x1.b5585c2ae82f9p+6, /* 79 */
    0x1.ba09b66c425a8p+6, /* 80 */
    0x1.beb9f604ae198p+6, /* 81 */
    0x1.c369202b6d8a9p+6, /* 82 */
    0x1.c81739ef2f8abp+6, /* 83 */
    0x1.ccc44837c461bp+6, /* 84 */
    0x1.d1704fc7bb1abp+6, /* 85 */
    0x1.d61b553de90adp+6, /* 86 */
    0x1.dac55d16dce9fp+6, /* 87 */
    0x1.df6e6bae3ec75p+6, /* 88 */
    0x1.e41685401e0bdp+6, /* 89 */
    0x1.e8bdadea2ea4ep+6, /* 90 */
    0x1.ed63e9acf65e3p+6, /* 91 */
    0x1.f2093c6ceb5ffp+6, /* 92 */
    0x1.f6ada9f384b21p+6, /* 93 */
    0x1.fb5135f03d9a2p+6, /* 94 */
    0x1.fff3e3f98c962p+6, /* 95 */
    0x1.024adbc6e7564p+7, /* 96 */
    0x1.049b5a0a13ddep+7, /* 97 */
    0x1.06eb6e6eac34cp+7, /* 98 */
    0x1.093b1a9245221p+7, /* 99 */
    0x1.0b8a60080952p+7, /* 100 */
    0x1.0dd940591666ap+7, /* 101 */
    0x1.1027bd04d5e5bp+7, /* 102 */
    0x1.1275d781523cdp+7, /* 103 */
    0x1.14c3913b88114p+7, /* 104 */
    0x1.1710eb97b40ccp+7, /* 105 */
    0x1.195de7f19d577p+7, /* 106 */
    0x1.1baa879cdce9cp+7, /* 107 */
    0x1.1df6cbe521e1p+7, /* 108 */
    0x1.2042b60e72fcp+7, /* 109 */
    0x1.228e47556d661p+7, /* 110 */
    0x1.24d980ef80f15p+7, /* 111 */
    0x1.2724640b29e1ap+7, /* 112 */
    0x1.296ef1d02866ap+7, /* 113 */
    0x1.2bb92b5fb5e11p+7, /* 114 */
    0x1.2e0311d4b80fbp+7, /* 115 */
    0x1.304ca643f23bdp+7, /* 116 */
    0x1.3295e9bc347fap+7, /* 117 */
    0x1.34dedd46893b5p+7, /* 118 */
    0x1.372781e660cf7p+7, /* 119 */
    0x1.396fd899bbb18p+7, /* 120 */
    0x1.3bb7e25952edp+7, /* 121 */
    0x1.3dffa018bf235p+7, /* 122 */
    0x1.404712c69e1d4p+7, /* 123 */
    0x1.428e3b4cb6fc5p+7, /* 124 */
    0x1.44d51a901d1d2p+7, /* 125 */
    0x1.471bb17151b8fp+7, /* 126 */
    0x1.496200cc6454p+7, /* 127 */
    0x1.4ba809791207p+7, /* 128 */
};

#endif
