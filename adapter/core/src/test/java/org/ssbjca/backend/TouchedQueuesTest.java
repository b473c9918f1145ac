package org.ssbjca.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What a transaction's arrivals on each queue come to: the groups counted, up to a bound; nothing kept after. */
class TouchedQueuesTest {

    private final TouchedQueues touched = new TouchedQueues();

    @Test
    void messagesInTheSameGroupCountOnce() {
        UUID g = UUID.randomUUID();
        touched.add("Q", "A", g);
        touched.add("Q", "B", g);
        touched.add("Q", "A", UUID.randomUUID());
        touched.addToNewGroup("Q", "A");
        assertEquals(Map.of("Q", new TouchedQueues.Arrivals(Set.of("A", "B"), 3)), touched.drain());
        assertTrue(touched.drain().isEmpty(), "a drain forgets");
    }

    @Test
    void aBulkSendToManyGroupsCountsUpToTheBoundOnly() {
        for (int i = 0; i < 100_000; i++) {
            touched.add("Q", "A", UUID.randomUUID());
        }
        for (int i = 0; i < 10; i++) {
            touched.addToNewGroup("Q", "A");
        }
        assertEquals(TouchedQueues.Arrivals.MANY, touched.drain().get("Q").groups());
    }

    @Test
    void anArrivalInAGroupNotKnownMakesTheCountUnknown() {
        touched.add("Q", "A", UUID.randomUUID());
        touched.add("Q", null);
        touched.add("R", "A", UUID.randomUUID());
        Map<String, TouchedQueues.Arrivals> out = touched.drain();
        assertEquals(TouchedQueues.Arrivals.UNKNOWN, out.get("Q").groups());
        assertEquals(Set.of("A"), out.get("Q").types());
        assertEquals(1, out.get("R").groups());
    }
}
