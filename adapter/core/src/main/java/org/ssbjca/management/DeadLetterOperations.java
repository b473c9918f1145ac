package org.ssbjca.management;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.ssbjca.brokers.BrokerRegistry;
import org.ssbjca.inbound.EndpointActivation;

/** The dead-letter operations of an activation's MXBean: list, deliver again (one or many), purge. */
final class DeadLetterOperations {

    /**
     * The longest {@code redeliverDeadLetter} waits for the outcome: a reader waiting in its RECEIVE is woken for the
     * request, so only deliveries in progress on every reader make it wait. Under the 60 s after which a remote JMX
     * client ({@code remote+http}) gives up on a call.
     */
    static final long REDELIVERY_WAIT_MILLIS = 30_000;
    /** How often {@code redeliverDeadLetter} wakes a reader again while its request waits for one. */
    private static final long REWAKE_MILLIS = 250;
    /** Dead letters read at a time by {@code redeliverDeadLetters} looking for a type: the most a listing holds. */
    private static final int PAGE = 10_000;

    private final EndpointActivation activation;

    DeadLetterOperations(EndpointActivation activation) {
        this.activation = activation;
    }

    private String queue() {
        return activation.queue();
    }

    private BrokerRegistry.Entry database() {
        return activation.database();
    }

    List<DeadLetterInfo> list(long afterId, int max) {
        if (max < 1 || max > 10_000) {
            throw new IllegalArgumentException("max must be between 1 and 10000, was " + max);
        }
        return ShortLivedConnection.read(database(), "listing the dead letters of " + queue(),
                c -> database().broker().ledger(c).deadLetters(queue(), afterId, max))
                .stream().map(DeadLetterInfo::of).collect(Collectors.toList());
    }

    boolean redeliver(long id) {
        if (activation.isPaused()) {
            throw new IllegalStateException("the activation is paused: resume it before redelivering");
        }
        CompletableFuture<Boolean> outcome = activation.redeliver(id);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(REDELIVERY_WAIT_MILLIS);
        try {
            while (true) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                try {
                    return outcome.get(Math.max(1, Math.min(left, REWAKE_MILLIS)), TimeUnit.MILLISECONDS);
                } catch (TimeoutException e) {
                    if (left <= REWAKE_MILLIS) {
                        throw new IllegalStateException("dead letter " + id + " was not redelivered within "
                                + REDELIVERY_WAIT_MILLIS + " ms (no reader was free); the request stays queued "
                                + "for the next free reader");
                    }
                    activation.wakeForRedeliveries();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while redelivering dead letter " + id);
        } catch (ExecutionException e) {
            throw ShortLivedConnection.forClient("redelivering dead letter " + id, e);
        }
    }

    int purge() {
        return ShortLivedConnection.run(database(), "purging the dead letters of " + queue(),
                s -> database().broker().ledger(s.connection()).purgeDeadLetters(queue()));
    }

    int purgeOlderThan(long minutes) {
        if (minutes < 0) {
            throw new IllegalArgumentException("minutes must be 0 or more, was " + minutes);
        }
        java.time.Instant before = java.time.Instant.now().minus(java.time.Duration.ofMinutes(minutes));
        return ShortLivedConnection.run(database(), "purging the dead letters of " + queue() + " older than "
                + minutes + " min", s -> database().broker().ledger(s.connection())
                .purgeDeadLettersBefore(queue(), before));
    }

    int redeliverAll(String messageType, int max) {
        if (max < 1 || max > 10_000) {
            throw new IllegalArgumentException("max must be between 1 and 10000, was " + max);
        }
        String type = messageType == null || messageType.isBlank() ? null : messageType.trim();
        List<Long> ids = oldestIds(type, max);
        int delivered = 0;
        for (long id : ids) {
            if (!redeliver(id)) {
                break;
            }
            delivered++;
        }
        return delivered;
    }

    /**
     * @return the ids of the oldest {@code max} dead letters of the type (null: any), read a page of
     *         {@value #PAGE} at a time until there are {@code max} or no more (those of the type may come after many
     *         of other types)
     */
    private List<Long> oldestIds(String type, int max) {
        List<Long> ids = new ArrayList<>();
        long after = 0;
        while (ids.size() < max) {
            List<DeadLetterInfo> page = list(after, type == null ? max : PAGE);
            page.stream().filter(d -> type == null || type.equals(d.getMessageType()))
                    .limit(max - ids.size())
                    .forEach(d -> ids.add(d.getId()));
            if (type == null || page.size() < PAGE) {
                return ids;
            }
            after = page.get(page.size() - 1).getId();
        }
        return ids;
    }
}
