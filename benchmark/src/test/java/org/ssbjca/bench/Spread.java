package org.ssbjca.bench;

import java.util.Arrays;
import java.util.Locale;

/**
 * A ratio measured in interleaved rounds ({@link Rounds}): the median of the rounds' ratios, which judges a target,
 * and their range, which says how far one round's figure could stray from it on this machine.
 *
 * @param median the median of the rounds' ratios (for an even count, the lower middle one: a measured value)
 * @param min the smallest round's ratio
 * @param max the largest round's ratio
 * @param rounds how many rounds
 */
record Spread(double median, double min, double max, int rounds) {

    /**
     * @param ratios one ratio per round, at least one
     * @return their median and range
     */
    static Spread of(double[] ratios) {
        if (ratios.length == 0) {
            throw new IllegalArgumentException("no round");
        }
        double[] sorted = ratios.clone();
        Arrays.sort(sorted);
        return new Spread(Rounds.median(ratios), sorted[0], sorted[sorted.length - 1], sorted.length);
    }

    /**
     * @param numerators one figure per round of the first system
     * @param denominators the same round's figure of the second, as many
     * @return the spread of the rounds' ratios {@code numerators[r] / denominators[r]}
     */
    static Spread ofRounds(double[] numerators, double[] denominators) {
        if (numerators.length != denominators.length) {
            throw new IllegalArgumentException(numerators.length + " rounds against " + denominators.length);
        }
        double[] ratios = new double[numerators.length];
        for (int r = 0; r < ratios.length; r++) {
            ratios[r] = numerators[r] / denominators[r];
        }
        return of(ratios);
    }

    /** @return "0.95× (0.90×–1.02×)": the median, then the range of the rounds; one round: "0.95× (1 round)" */
    String text() {
        return text(Double.NaN);
    }

    /**
     * As {@link #text()}, the median with three decimals when within 0.005 of {@code line}, where two would round it
     * onto or across the line: "0.968× (0.83×–0.99×)" against 0.97, not "0.97×" beside "missed".
     *
     * @param line the target the median is judged against (NaN: none)
     */
    String text(double line) {
        String m = Math.abs(median - line) < 0.005 ? String.format(Locale.ROOT, "%.3f×", median)
                : String.format(Locale.ROOT, "%.2f×", median);
        return rounds < 2 ? m + " (1 round)" : String.format(Locale.ROOT, "%s (%.2f×–%.2f×)", m, min, max);
    }
}
