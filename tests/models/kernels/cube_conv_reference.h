#pragma once
// Naive NCHW convolution references for the cube conv tests.
#include <cstdint>
#include <vector>

namespace ascendsim::test {

struct ConvShape {
    std::int64_t n, c, h, w, co, kh, kw;
    std::int64_t sh = 1, sw = 1, pt = 0, pb = 0, pl = 0, pr = 0, dh = 1, dw = 1, groups = 1;
    std::int64_t outH() const { return (h + pt + pb - dh * (kh - 1) - 1) / sh + 1; }
    std::int64_t outW() const { return (w + pl + pr - dw * (kw - 1) - 1) / sw + 1; }
};

// Calls f(n, co, oh, ow, c, i, j, ih, iw) for every in-bounds term of the forward convolution.
template <typename F>
void forEachConvTerm(const ConvShape& s, F f) {
    const std::int64_t cg = s.c / s.groups, cog = s.co / s.groups;
    for (std::int64_t n = 0; n < s.n; ++n)
        for (std::int64_t co = 0; co < s.co; ++co)
            for (std::int64_t oh = 0; oh < s.outH(); ++oh)
                for (std::int64_t ow = 0; ow < s.outW(); ++ow)
                    for (std::int64_t cl = 0; cl < cg; ++cl)
                        for (std::int64_t i = 0; i < s.kh; ++i)
                            for (std::int64_t j = 0; j < s.kw; ++j) {
                                const std::int64_t ih = oh * s.sh - s.pt + i * s.dh, iw = ow * s.sw - s.pl + j * s.dw;
                                if (ih < 0 || ih >= s.h || iw < 0 || iw >= s.w) continue;
                                f(n, co, oh, ow, (co / cog) * cg + cl, cl, i, j, ih, iw);
                            }
}

inline std::vector<double> referenceConv(const ConvShape& s, const std::vector<float>& x, const std::vector<float>& w) {
    std::vector<double> y(static_cast<std::size_t>(s.n * s.co * s.outH() * s.outW()), 0.0);
    const std::int64_t cg = s.c / s.groups;
    forEachConvTerm(s, [&](auto n, auto co, auto oh, auto ow, auto c, auto cl, auto i, auto j, auto ih, auto iw) {
        y[static_cast<std::size_t>(((n * s.co + co) * s.outH() + oh) * s.outW() + ow)] +=
            double(x[static_cast<std::size_t>(((n * s.c + c) * s.h + ih) * s.w + iw)]) *
            w[static_cast<std::size_t>(((co * cg + cl) * s.kh + i) * s.kw + j)];
    });
    return y;
}

inline std::vector<double> referenceConvInputGrad(const ConvShape& s, const std::vector<float>& dy, const std::vector<float>& w) {
    std::vector<double> dx(static_cast<std::size_t>(s.n * s.c * s.h * s.w), 0.0);
    const std::int64_t cg = s.c / s.groups;
    forEachConvTerm(s, [&](auto n, auto co, auto oh, auto ow, auto c, auto cl, auto i, auto j, auto ih, auto iw) {
        dx[static_cast<std::size_t>(((n * s.c + c) * s.h + ih) * s.w + iw)] +=
            double(dy[static_cast<std::size_t>(((n * s.co + co) * s.outH() + oh) * s.outW() + ow)]) *
            w[static_cast<std::size_t>(((co * cg + cl) * s.kh + i) * s.kw + j)];
    });
    return dx;
}

inline std::vector<double> referenceConvFilterGrad(const ConvShape& s, const std::vector<float>& x, const std::vector<float>& dy) {
    const std::int64_t cg = s.c / s.groups;
    std::vector<double> dw(static_cast<std::size_t>(s.co * cg * s.kh * s.kw), 0.0);
    forEachConvTerm(s, [&](auto n, auto co, auto oh, auto ow, auto c, auto cl, auto i, auto j, auto ih, auto iw) {
        dw[static_cast<std::size_t>(((co * cg + cl) * s.kh + i) * s.kw + j)] +=
            double(dy[static_cast<std::size_t>(((n * s.co + co) * s.outH() + oh) * s.outW() + ow)]) *
            x[static_cast<std::size_t>(((n * s.c + c) * s.h + ih) * s.w + iw)];
    });
    return dw;
}

}  // namespace ascendsim::test
