package org.ssbjca.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link CpuMeter#treeTicks}: a child reaped while the tree is read counts once. */
class CpuMeterTest {

    /** A parent with 100 ticks of its own and two children of 30 and 40: 170 in all. */
    @Test
    void aTreeNothingEndsInIsReadOnce() {
        int[] reads = {0};
        long[] ticks = CpuMeter.treeTicks(() -> new long[] {100, 10}, () -> {
            reads[0]++;
            return new long[] {70, 7};
        });
        assertArrayEquals(new long[] {170, 17}, ticks);
        assertEquals(1, reads[0]);
    }

    /**
     * The child of 40 ticks is reaped after the parent was read and before the children were: read once, it would be
     * missing from both parts (130); read again, it is in the parent's.
     */
    @Test
    void aChildReapedBetweenTheParentsReadAndTheChildrensCountsOnce() {
        Deque<long[]> parent = new ArrayDeque<>(List.of(new long[] {100, 10}, new long[] {140, 14},
                new long[] {140, 14}));
        Deque<long[]> children = new ArrayDeque<>(List.of(new long[] {30, 3}, new long[] {30, 3}));
        assertArrayEquals(new long[] {170, 17}, CpuMeter.treeTicks(parent::pop, children::pop));
    }

    /**
     * The child of 40 ticks is read live, then reaped before the parent's second read: read once, it would count
     * twice (210).
     */
    @Test
    void aChildReapedAfterItWasReadCountsOnce() {
        Deque<long[]> parent = new ArrayDeque<>(List.of(new long[] {100, 10}, new long[] {140, 14},
                new long[] {140, 14}));
        Deque<long[]> children = new ArrayDeque<>(List.of(new long[] {70, 7}, new long[] {30, 3}));
        assertArrayEquals(new long[] {170, 17}, CpuMeter.treeTicks(parent::pop, children::pop));
    }

    /** {@code /proc/stat}'s line: busy is user, nice, system, irq and softirq; idle and iowait are not; steal apart. */
    @Test
    void theMachinesLineSplitsBusyStolenAndAll() {
        assertArrayEquals(new long[] {1 + 2 + 3 + 6 + 7, 8, 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8},
                CpuMeter.machine("cpu  1 2 3 4 5 6 7 8 0 0"));
    }

    /** Busy 75% and stolen 5% of a window, as a row prints them. */
    @Test
    void aReadingGivesTheMachinesShareOfTheWindow() {
        CpuMeter.Reading before = new CpuMeter.Reading(0, 0, 0, 0, -1, -1, new long[] {100, 10, 1000});
        CpuMeter.Reading after = new CpuMeter.Reading(0, 0, 0, 0, -1, -1, new long[] {250, 20, 1200});
        String text = after.minus(before).perMessage(1, false);
        org.junit.jupiter.api.Assertions.assertTrue(text.endsWith("; the machine's cores busy 75%, stolen 5%"), text);
    }

    /** Children that keep ending: the tree is read at most {@link CpuMeter#TREE_READS} times. */
    @Test
    void aTreeThatNeverSettlesIsReadABoundedNumberOfTimes() {
        long[] next = {0};
        int[] reads = {0};
        CpuMeter.treeTicks(() -> new long[] {next[0]++, 0}, () -> {
            reads[0]++;
            return new long[] {0, 0};
        });
        assertEquals(CpuMeter.TREE_READS, reads[0]);
    }
}
