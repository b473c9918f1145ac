package org.ssbjca.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The side-by-side comparisons run in rounds: each round runs every system once, in the order given in even rounds
 * and reversed in odd ones, so that a drift of the shared machine (another tenant's load, the journal's or the
 * database's state) falls on both sides alike; a target is judged on the median of the rounds' ratios.
 */
final class Rounds {

    /** Rounds per comparison: {@code -Dbench.rounds=N}; 3 by default, 1 in a quick run. */
    static final int COUNT = Math.max(1, Integer.getInteger("ssb.bench.rounds",
            Boolean.getBoolean("ssb.bench.quick") ? 1 : 3));

    /**
     * Rounds of the scaling phase at each reader count ({@code -Dbench.scaling.rounds=N}): 7 by default (at least
     * {@link #COUNT}), 1 in a quick run. Its drains are short (10,000 messages), and the spread of their ratios across
     * rounds and runs was as wide as the distance to its target (run AB, 5 rounds: 0.82× to 1.01× at 4 readers).
     */
    static final int SCALING = Math.max(1, Integer.getInteger("ssb.bench.scalingRounds",
            Boolean.getBoolean("ssb.bench.quick") ? 1 : Math.max(COUNT, 7)));

    /**
     * Rounds of the one-database phase ({@code -Dbench.oneDatabase.rounds=N}): 5 by default (at least
     * {@link #COUNT}), 1 in a quick run. With 3, ssb-jca's own rate spread from 1,875 to 2,814 msg/s in one run (AP)
     * and the median of the ratios moved from 1.90× to 2.29× across runs AK to AP, around its target of 2×.
     */
    static final int ONE_DATABASE = Math.max(1, Integer.getInteger("ssb.bench.oneDatabaseRounds",
            Boolean.getBoolean("ssb.bench.quick") ? 1 : Math.max(COUNT, 5)));

    private Rounds() {
    }

    /** @return the systems in the order round {@code round} runs them (reversed in odd rounds) */
    static <T> List<T> order(int round, List<T> systems) {
        List<T> order = new ArrayList<>(systems);
        if (round % 2 == 1) {
            Collections.reverse(order);
        }
        return order;
    }

    /** @return the median of {@code values} (for an even count, the lower of the two middle ones: a measured value) */
    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[(sorted.length - 1) / 2];
    }

    /** @return the rounds' ratios as "1.02× / 0.97× / 1.10×" */
    static String each(double[] ratios) {
        return Arrays.stream(ratios).mapToObj(r -> String.format(Locale.ROOT, "%.2f×", r))
                .collect(Collectors.joining(" / "));
    }
}
