package org.ssbjca.inbound;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Readers on a disabled queue park: one prober comes back to look again, the others stay until the queue is enabled;
 * the first finder reports it, once per episode.
 */
class DisabledQueueTest {

    @Test
    void oneProberLooksAgainAndTheOthersWaitUntilEnabled() throws Exception {
        DisabledQueue q = new DisabledQueue();
        assertTrue(q.found(System.nanoTime()), "the first finder reports it");
        assertFalse(q.found(System.nanoTime()), "once per episode");
        assertNotNull(q.since());
        AtomicInteger probes = new AtomicInteger();
        AtomicInteger returned = new AtomicInteger();
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> readers = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            String name = "reader " + i;
            Thread t = new Thread(() -> {
                while (!stop.get() && q.since() != null) {
                    q.park(name, stop::get, 20);
                    if (q.since() != null) {
                        probes.incrementAndGet(); // it came back while still disabled: a probe
                    }
                }
                returned.incrementAndGet();
            });
            readers.add(t);
            t.start();
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> probes.get() >= 5);
        assertEquals(0, returned.get(), "no reader left while the queue is disabled");

        q.enabled();

        await().atMost(Duration.ofSeconds(10)).until(() -> returned.get() == 4);
        assertNull(q.since());
        assertTrue(q.found(System.nanoTime()), "a new episode is reported again");
        for (Thread t : readers) {
            t.join(5_000);
        }
    }

    @Test
    void whenTheProberLeavesAnotherReaderProbes() throws Exception {
        DisabledQueue q = new DisabledQueue();
        q.found(System.nanoTime());
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger secondProbes = new AtomicInteger();
        q.park("first", stop::get, 1); // the first becomes the prober
        Thread second = new Thread(() -> {
            while (!stop.get()) {
                q.park("second", stop::get, 10);
                secondProbes.incrementAndGet();
            }
        });
        second.start();
        q.left("first");
        await().atMost(Duration.ofSeconds(10)).until(() -> secondProbes.get() >= 2);
        stop.set(true);
        q.enabled();
        second.join(5_000);
    }

    /**
     * A reader whose RECEIVE began before the queue was enabled and failed on it after (the disabled state it saw is
     * older than the enable) leaves the queue enabled: seen failing in BrokerDoctorTest, where such a reader marked it
     * disabled again, at a time after the enable, just as the prober's reader delivered.
     */
    @Test
    void aLookThatBeganBeforeTheEnableLeavesTheQueueEnabled() {
        DisabledQueue q = new DisabledQueue();
        long before = System.nanoTime();
        assertTrue(q.found(before));
        q.enabled();
        assertFalse(q.found(before), "the older look says nothing new");
        assertNull(q.since());
        assertTrue(q.found(System.nanoTime()), "a look that began after the enable finds it disabled again");
        assertNotNull(q.since());
    }
}
