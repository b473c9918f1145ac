package org.ssbjca.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.openjdk.jol.info.GraphLayout;

/** The ring: the latest points in order, a gap, the capacity. */
class HistoryTest {

    private static Sample delivered(long seconds, long delivered) {
        return new Sample(seconds * 1000, delivered, 0, 0, 0, delivered, delivered, 0, 0, 0);
    }

    private static List<Long> times(History h) {
        return h.points().stream().map(Point::millis).toList();
    }

    @Test
    void theFirstSampleStartsAnIntervalAndTheRingKeepsTheLatestOldestFirst() {
        History h = new History(3);
        assertNull(h.add(delivered(0, 0)));
        assertEquals(List.of(), h.points());
        assertEquals(-1, h.latestMillis());
        for (int i = 1; i <= 5; i++) {
            h.add(delivered(5L * i, 10L * i));
        }
        assertEquals(List.of(15_000L, 20_000L, 25_000L), times(h), "the three latest of five");
        assertEquals(25_000, h.latestMillis());
        assertEquals(List.of(2.0, 2.0, 2.0), h.points().stream().map(Point::delivered).toList());
    }

    @Test
    void afterAGapTheNextSampleOnlyStartsAnInterval() {
        History h = new History(10);
        h.add(delivered(0, 0));
        h.add(delivered(5, 50));
        h.gap();
        assertNull(h.add(delivered(60, 3)), "no interval across the gap");
        h.add(delivered(65, 13));
        assertEquals(List.of(10.0, 2.0), h.points().stream().map(Point::delivered).toList());
    }

    @Test
    void aCapacityBelowOneIsRefused() {
        assertEquals("capacity 0 is below 1",
                assertThrows(IllegalArgumentException.class, () -> new History(0)).getMessage());
    }

    /**
     * console.md: an hour of points (720, one per 5 s) in "about 75 KB per activation": a full ring's retained size as
     * this JVM lays it out (JOL), with its latest sample, from 65 to 85 KB.
     */
    @Test
    void anHourOfPointsTakesAbout75KilobytesPerActivation() {
        assertEquals(720, Histories.CAPACITY, "an hour at one point per 5 s");
        History h = new History(Histories.CAPACITY);
        for (int i = 0; i <= Histories.CAPACITY + 10; i++) {
            h.add(new Sample(i * 5000L, 10L * i, i, i, i, 10L * i, 20L * i, 3, 100 + i, i));
        }
        assertEquals(Histories.CAPACITY, h.points().size(), "the ring full");
        // JDK 17 gives no field offsets of a record's fields through Unsafe; JOL then finds them by probing
        System.setProperty("jol.magicFieldOffset", "true");
        long bytes = GraphLayout.parseInstance(h).totalSize();
        assertTrue(bytes >= 65_000 && bytes <= 85_000, "retained bytes of a full hour: " + bytes);
    }
}
