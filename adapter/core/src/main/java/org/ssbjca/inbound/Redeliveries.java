package org.ssbjca.inbound;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Dead letters an operator asked to deliver again, waiting for a reader ({@link DeadLetterRedelivery} delivers one
 * per reader turn, before its RECEIVE).
 */
final class Redeliveries {

    private final Queue<Redelivery> waiting = new ConcurrentLinkedQueue<>();
    private final AtomicInteger nextWake = new AtomicInteger();

    /**
     * Returns completes with true when its delivery committed, false when it failed or the activation stopped.
     *
     * @param deadLetterId the letter
     */
    CompletableFuture<Boolean> add(long deadLetterId) {
        Redelivery r = new Redelivery(deadLetterId);
        waiting.add(r);
        return r.result;
    }

    /** Returns the next letter to deliver, or null. */
    Redelivery take() {
        return waiting.poll();
    }

    /**
     * Wakes one reader that is not delivering, if letters wait. A wake can miss a reader that was just starting its
     * RECEIVE, so a caller waiting for a redelivery repeats it.
     *
     * @param readers the activation's readers
     * @param delivering the names of the readers delivering now
     */
    void wakeOneIdle(Collection<QueueReader> readers, Set<String> delivering) {
        if (waiting.isEmpty()) {
            return;
        }
        List<QueueReader> running = new ArrayList<>(readers);
        for (int i = 0; i < running.size(); i++) {
            QueueReader r = running.get(Math.floorMod(nextWake.getAndIncrement(), running.size()));
            if (!delivering.contains(r.name()) && !r.waiting()) { // one waiting for a thread has no RECEIVE
                r.wake();
                return;
            }
        }
    }

    /** The activation stops: every waiting letter stays where it is, and its caller learns it was not delivered. */
    void failAll() {
        Redelivery r;
        while ((r = waiting.poll()) != null) {
            r.done(false);
        }
    }

    /** A dead letter an operator asked to deliver again. */
    static final class Redelivery {
        private final long id;
        private final CompletableFuture<Boolean> result = new CompletableFuture<>();

        Redelivery(long id) {
            this.id = id;
        }

        long id() {
            return id;
        }

        void done(boolean delivered) {
            result.complete(delivered);
        }
    }
}
