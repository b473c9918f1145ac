package org.ssbjca.backend.portable;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.ssbjca.backend.QueueSignals;
import org.ssbjca.backend.TouchedQueues;

/**
 * The portable WAITFOR's looks at the queue (each a RECEIVE statement on a real database): a message committed in
 * one conversation group sends one idle reader to the queue, not every one; a reader woken for it that will not look
 * hands the wake-up on. The fallback poll is a minute, so only a signal can make a reader look within the tests'
 * bounds.
 */
class WaitingTest {

    private static final String QUEUE = "Q";
    private static final long MINUTE = 60_000;

    private final QueueSignals signals = new QueueSignals();
    private final Waiting waiting = new Waiting(signals, MINUTE);
    private final ExecutorService threads = Executors.newCachedThreadPool();
    /** The queue as the looks see it. */
    private final Queue<String> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger looks = new AtomicInteger();

    @AfterEach
    void stop() {
        signals.signal(QUEUE);
        threads.shutdownNow();
    }

    @Test
    void oneMessageSendsOneOfFourIdleReadersToTheQueue() throws Exception {
        List<CompletableFuture<String>> readers = readers(4, () -> false, this::look);
        queue.add("m1");
        signals.committed(Map.of(QUEUE, new TouchedQueues.Arrivals(Set.of("M"), 1)));
        assertEquals("m1", CompletableFuture.anyOf(readers.toArray(CompletableFuture[]::new)).get(30,
                TimeUnit.SECONDS));
        // four looks before the message, one after: the three others still wait without looking
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(30)).until(() -> looks.get() == 5);
        assertEquals(3, signals.waiters(QUEUE, true));
    }

    @Test
    void messagesInThreeGroupsSendThreeReaders() throws Exception {
        List<CompletableFuture<String>> readers = readers(4, () -> false, this::look);
        queue.addAll(List.of("a", "b", "c"));
        signals.committed(Map.of(QUEUE, new TouchedQueues.Arrivals(Set.of("M"), 3)));
        await().atMost(Duration.ofSeconds(30)).until(() -> readers.stream().filter(CompletableFuture::isDone)
                .count() == 3);
        // four looks before, three after: the fourth reader still waits without looking
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(30)).until(() -> looks.get() == 7);
        assertEquals(1, signals.waiters(QUEUE, true));
    }

    @Test
    void aReaderWokenAndThenCancelledHandsTheWakeUpOn() throws Exception {
        AtomicBoolean cancelNext = new AtomicBoolean();
        List<CompletableFuture<String>> readers = readers(2, () -> cancelNext.getAndSet(false), this::look);
        cancelNext.set(true);
        queue.add("m1");
        signals.committed(Map.of(QUEUE, new TouchedQueues.Arrivals(Set.of("M"), 1)));
        // the first woken is cancelled (null); the other one, woken by the hand-over, takes the message
        await().atMost(Duration.ofSeconds(30)).until(() -> readers.stream().allMatch(CompletableFuture::isDone));
        List<String> got = new ArrayList<>();
        readers.forEach(r -> got.add(r.join()));
        got.sort(java.util.Comparator.nullsFirst(java.util.Comparator.naturalOrder()));
        assertEquals(java.util.Arrays.asList(null, "m1"), got);
    }

    @Test
    void aReaderWokenWhoseLookFailsHandsTheWakeUpOn() throws Exception {
        AtomicBoolean failNext = new AtomicBoolean();
        List<CompletableFuture<String>> readers = readers(2, () -> false, () -> {
            if (failNext.getAndSet(false)) {
                looks.incrementAndGet();
                throw new IllegalStateException("the connection broke");
            }
            return look();
        });
        failNext.set(true);
        queue.add("m1");
        signals.committed(Map.of(QUEUE, new TouchedQueues.Arrivals(Set.of("M"), 1)));
        await().atMost(Duration.ofSeconds(30)).until(() -> readers.stream().allMatch(CompletableFuture::isDone));
        assertEquals(1, readers.stream().filter(CompletableFuture::isCompletedExceptionally).count());
        assertEquals(1, readers.stream().filter(r -> !r.isCompletedExceptionally() && "m1".equals(r.join()))
                .count());
    }

    private String look() {
        looks.incrementAndGet();
        return queue.poll();
    }

    /** Starts {@code n} readers that take any group, and returns once each has looked and waits. */
    private List<CompletableFuture<String>> readers(int n, BooleanSupplier cancelled,
            java.util.function.Supplier<String> look) {
        List<CompletableFuture<String>> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(CompletableFuture.supplyAsync(() -> waiting.await(QUEUE, Duration.ofMinutes(2), true, cancelled,
                    () -> false, look), threads));
        }
        await("the readers wait").atMost(Duration.ofSeconds(30)).until(() -> signals.waiters(QUEUE, true) == n);
        return out;
    }
    /**
     * The wait's flight recorder event when the queue was signalled during the look before it: the thread does not
     * block, {@code busy} says how long before the wait the signal came, and the wake-up counts from the wait's start
     * (it counted from the signal, longer than the wait itself).
     */
    @Test
    void aSignalDuringTheLookIsRecordedAsBusyNotAsAWakeUp() throws Exception {
        List<jdk.jfr.consumer.RecordedEvent> events;
        try (jdk.jfr.Recording recording = new jdk.jfr.Recording()) {
            recording.enable(org.ssbjca.support.WaitEvent.NAME).withThreshold(Duration.ZERO);
            recording.start();
            AtomicInteger calls = new AtomicInteger();
            String found = waiting.await(QUEUE, Duration.ofSeconds(30), true, () -> false, () -> false, () -> {
                if (calls.incrementAndGet() == 1) {
                    signals.signal(QUEUE); // a commit while this look runs
                    sleep(20);
                    return null;
                }
                return "m";
            });
            assertEquals("m", found);
            recording.stop();
            events = org.ssbjca.fakes.FlightRecordings.events(recording);
        }
        assertEquals(1, events.size(), events.toString());
        jdk.jfr.consumer.RecordedEvent wait = events.get(0);
        org.junit.jupiter.api.Assertions.assertTrue(wait.getBoolean("signalled"), wait.toString());
        org.junit.jupiter.api.Assertions.assertTrue(wait.getLong("busy") >= 20_000_000L, wait.toString());
        org.junit.jupiter.api.Assertions.assertTrue(wait.getLong("wakeUp") <= wait.getDuration().toNanos(),
                "the wake-up is part of the wait: " + wait);
    }

    /**
     * While the caller says to look again, a look that found nothing is followed at once by another, not by a sleep;
     * then the waiter sleeps until the signal (the fallback is a minute).
     */
    @Test
    void anEmptyLookIsFollowedAtOnceWhileTheCallerSaysSo() throws Exception {
        AtomicInteger primes = new AtomicInteger(3);
        CompletableFuture<String> reader = CompletableFuture.supplyAsync(() -> waiting.await(QUEUE,
                Duration.ofMinutes(2), true, () -> false, () -> false, () -> primes.getAndDecrement() > 0,
                this::look), threads);
        await("the waiter sleeps").atMost(Duration.ofSeconds(30)).until(() -> signals.waiters(QUEUE, true) == 1);
        assertEquals(4, looks.get(), "the first look and three more at once");
        queue.add("m1");
        signals.committed(Map.of(QUEUE, new TouchedQueues.Arrivals(Set.of("M"), 1)));
        assertEquals("m1", reader.get(30, TimeUnit.SECONDS));
        assertEquals(5, looks.get());
    }

    /**
     * A waiter that another waiter's signal left asleep until its fallback look was not woken by a signal: its event
     * says so (it said "signalled", with a wake-up as long as the fallback interval).
     */
    @Test
    void aWaiterLeftAsleepByAnotherWaitersSignalIsNotRecordedAsSignalled() throws Exception {
        Waiting shortFallback = new Waiting(signals, 300);
        List<jdk.jfr.consumer.RecordedEvent> events;
        try (jdk.jfr.Recording recording = new jdk.jfr.Recording()) {
            recording.enable(org.ssbjca.support.WaitEvent.NAME).withThreshold(Duration.ZERO);
            recording.start();
            AtomicBoolean arrived = new AtomicBoolean();
            java.util.function.Supplier<String> look = () -> arrived.get() ? "m" : null;
            CompletableFuture<String> first = CompletableFuture.supplyAsync(() -> shortFallback.await(QUEUE,
                    Duration.ofSeconds(30), true, () -> false, () -> false, look), threads);
            await().atMost(Duration.ofSeconds(30)).until(() -> signals.waiters(QUEUE, true) == 1);
            CompletableFuture<String> second = CompletableFuture.supplyAsync(() -> shortFallback.await(QUEUE,
                    Duration.ofSeconds(30), true, () -> false, () -> false, look), threads);
            await().atMost(Duration.ofSeconds(30)).until(() -> signals.waiters(QUEUE, true) == 2);
            arrived.set(true);
            signals.signal(QUEUE, 1); // wakes the waiter that waited longest, the first
            assertEquals("m", first.get(30, TimeUnit.SECONDS));
            assertEquals("m", second.get(30, TimeUnit.SECONDS));
            recording.stop();
            events = org.ssbjca.fakes.FlightRecordings.events(recording);
        }
        assertEquals(2, events.size(), events.toString());
        long signalled = events.stream().filter(e -> e.getBoolean("signalled")).count();
        assertEquals(1, signalled, "only the first waiter was woken by the signal: " + events);
        jdk.jfr.consumer.RecordedEvent ranOut = events.stream().filter(e -> !e.getBoolean("signalled")).findFirst()
                .orElseThrow();
        assertEquals(0, ranOut.getLong("wakeUp"), ranOut.toString());
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis); // the look's own work, which the test makes long: not a wait for a state
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
