package org.ssbjca.it.jmx;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the test beans saw, per queue: deliveries in the order they started, how many ran at once (now and at most),
 * and a gate the test closes to hold deliveries in progress (for at most two minutes, so a failed test cannot hang the
 * server). In the deployment; the test reads it through {@link JmxItDriverMXBean}.
 */
public final class DeliveryRecorder {

    private static final long HOLD_LIMIT_SECONDS = 120;
    private static final Map<String, Track> TRACKS = new ConcurrentHashMap<>();

    private DeliveryRecorder() {
    }

    /**
     * Records a delivery, then waits while the queue is held.
     *
     * @param queue the bean's queue
     * @param body the message text
     */
    public static void deliver(String queue, String body) {
        Track t = track(queue);
        t.peak.accumulateAndGet(t.concurrent.incrementAndGet(), Math::max);
        try {
            t.order.add(body);
            t.gate.await(HOLD_LIMIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            t.concurrent.decrementAndGet();
        }
    }

    static void hold(String queue) {
        track(queue).gate = new CountDownLatch(1);
    }

    static void release(String queue) {
        track(queue).gate.countDown();
    }

    static int concurrent(String queue) {
        return track(queue).concurrent.get();
    }

    static int peak(String queue) {
        return track(queue).peak.get();
    }

    static List<String> delivered(String queue) {
        return List.copyOf(track(queue).order);
    }

    private static Track track(String queue) {
        return TRACKS.computeIfAbsent(queue, q -> new Track());
    }

    private static final class Track {
        final AtomicInteger concurrent = new AtomicInteger();
        final AtomicInteger peak = new AtomicInteger();
        final List<String> order = new CopyOnWriteArrayList<>();
        volatile CountDownLatch gate = new CountDownLatch(0);
    }
}
