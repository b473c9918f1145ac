package org.ssbjca.backend;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Who a signal wakes: every waiter for one conversation or group, and only as many of the interchangeable waiters
 * (those that take whichever group comes next) as a commit filled groups. Waiters wait a minute, so a waiter that
 * returns was woken, never timed out.
 */
class QueueSignalsTest {

    private static final String QUEUE = "Q";
    private static final long MINUTE = 60_000;

    private final QueueSignals signals = new QueueSignals();
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void wakeEveryone() {
        signals.signal(QUEUE);
        threads.shutdownNow();
    }

    @Test
    void aCommitThatFilledOneGroupWakesOneOfTheWaitersThatTakeAnyGroup() {
        List<CompletableFuture<Boolean>> waiters = waiting(4, true);
        signals.committed(Map.of(QUEUE, new TouchedQueues.Arrivals(Set.of("M"), 1)));
        await().atMost(Duration.ofSeconds(30)).until(() -> woken(waiters) == 1);
        assertEquals(3, signals.waiters(QUEUE, true), "the other three still wait");
    }

    @Test
    void aCommitThatFilledTwoGroupsWakesTwo() {
        List<CompletableFuture<Boolean>> waiters = waiting(4, true);
        signals.committed(Map.of(QUEUE, new TouchedQueues.Arrivals(Set.of("M"), 2)));
        await().atMost(Duration.ofSeconds(30)).until(() -> woken(waiters) == 2);
        assertEquals(2, signals.waiters(QUEUE, true));
    }

    @Test
    void aHandOffWakesOneWaiterThatTakesAnyGroupAndIsNoArrival() {
        List<CompletableFuture<Boolean>> waiters = waiting(3, true);
        long uncounted = signals.uncountedArrivals(QUEUE);
        signals.handOff(QUEUE);
        await().atMost(Duration.ofSeconds(30)).until(() -> woken(waiters) == 1);
        assertEquals(2, signals.waiters(QUEUE, true), "the other two still wait");
        assertEquals(uncounted, signals.uncountedArrivals(QUEUE), "a hand-off is not an arrival");
        signals.committed(Map.of(QUEUE, new TouchedQueues.Arrivals(Set.of("M"), 1)));
        assertEquals(uncounted, signals.uncountedArrivals(QUEUE), "a commit here is counted by type");
        assertEquals(1, signals.arrivals(QUEUE, "M"));
        signals.signal(QUEUE, 1);
        assertEquals(uncounted + 1, signals.uncountedArrivals(QUEUE), "another process's commit (a notification)");
    }

    @Test
    void arrivalsInGroupsNotKnownWakeEveryWaiter() {
        List<CompletableFuture<Boolean>> waiters = waiting(4, true);
        signals.committed(Map.of(QUEUE, new TouchedQueues.Arrivals(Set.of(), TouchedQueues.Arrivals.UNKNOWN)));
        await().atMost(Duration.ofSeconds(30)).until(() -> woken(waiters) == 4);
    }

    @Test
    void aPlainSignalWakesEveryWaiter() {
        List<CompletableFuture<Boolean>> waiters = waiting(3, true);
        waiters.addAll(waiting(2, false));
        signals.signal(QUEUE);
        await().atMost(Duration.ofSeconds(30)).until(() -> woken(waiters) == 5);
    }

    @Test
    void waitersForOneConversationAreWokenByEveryCommit() {
        List<CompletableFuture<Boolean>> named = waiting(3, false);
        List<CompletableFuture<Boolean>> any = waiting(2, true);
        signals.committed(Map.of(QUEUE, new TouchedQueues.Arrivals(Set.of("M"), 1)));
        await().atMost(Duration.ofSeconds(30)).until(() -> woken(named) == 3 && woken(any) == 1);
        assertEquals(1, signals.waiters(QUEUE, true));
    }

    @Test
    void aWakeUpPassedOnWakesTheNextWaiter() {
        List<CompletableFuture<Boolean>> waiters = waiting(3, true);
        signals.committed(Map.of(QUEUE, new TouchedQueues.Arrivals(Set.of("M"), 1)));
        await().atMost(Duration.ofSeconds(30)).until(() -> woken(waiters) == 1);
        signals.passOn(QUEUE);
        await().atMost(Duration.ofSeconds(30)).until(() -> woken(waiters) == 2);
        assertEquals(1, signals.waiters(QUEUE, true));
    }

    @Test
    void aWaiterThatSawAnOlderGenerationDoesNotWaitAtAll() throws Exception {
        long seen = signals.generation(QUEUE);
        signals.committed(Map.of(QUEUE, new TouchedQueues.Arrivals(Set.of("M"), 1)));
        // the commit came between this waiter's look and its wait: nothing to wait for
        CompletableFuture<Boolean> late = CompletableFuture.supplyAsync(() -> awaitQuietly(seen, true), threads);
        assertEquals(Boolean.TRUE, late.get());
        assertFalse(signals.waiters(QUEUE, true) > 0);
    }

    @Test
    void committedCountsTheArrivalsOfEachType() {
        signals.committed(Map.of(QUEUE, new TouchedQueues.Arrivals(Set.of("A", "B"), 1)));
        signals.committed(Map.of(QUEUE, new TouchedQueues.Arrivals(Set.of("A"), 1)));
        assertEquals(2, signals.arrivals(QUEUE, "A"));
        assertEquals(1, signals.arrivals(QUEUE, "B"));
        assertEquals(0, signals.arrivals(QUEUE, "C"));
        assertEquals(0, signals.arrivals("OtherQueue", "A"), "counted by queue");
        assertEquals(0, signals.arrivals(QUEUE, null), "no type: none counted");
    }

    /** Starts {@code n} waiters of one kind, and returns once all of them wait. */
    private List<CompletableFuture<Boolean>> waiting(int n, boolean anyGroup) {
        int before = signals.waiters(QUEUE, anyGroup);
        long seen = signals.generation(QUEUE);
        List<CompletableFuture<Boolean>> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(CompletableFuture.supplyAsync(() -> awaitQuietly(seen, anyGroup), threads));
        }
        await("the waiters wait").atMost(Duration.ofSeconds(30))
                .until(() -> signals.waiters(QUEUE, anyGroup) == before + n);
        return out;
    }

    private boolean awaitQuietly(long seen, boolean anyGroup) {
        try {
            return signals.await(QUEUE, seen, MINUTE, anyGroup);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** @return how many of the waiters returned, each woken (a minute's wait cannot have run out) */
    private static long woken(List<CompletableFuture<Boolean>> waiters) {
        return waiters.stream().filter(f -> f.isDone() && Boolean.TRUE.equals(f.getNow(false))).count();
    }
}
