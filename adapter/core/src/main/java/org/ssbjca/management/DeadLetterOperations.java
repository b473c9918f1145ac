package org.ssbjca.management;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.ssbjca.backend.DeadLetter;
import org.ssbjca.backend.DeliveryLedger;
import org.ssbjca.brokers.BrokerRegistry;
import org.ssbjca.inbound.EndpointActivation;

/**
 * The dead-letter operations of an activation's MXBean: list, search, group by failure, export a body, deliver again
 * (one, many, or at a limited rate as a job), purge.
 */
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

    /** The most dead letters a grouping, or the choice of a group to redeliver, reads. */
    static final int MAX_SCAN = 10_000;
    /** The most dead letters one search returns. */
    static final int MAX_FOUND = 1_000;
    /** Dead letters read per statement by a scan. */
    private static final int SCAN_PAGE = 1_000;

    /**
     * Returns their groups by failure shape, the largest first.
     *
     * @param scanMax how many dead letters to read at most, oldest first (1 to {@value #MAX_SCAN})
     */
    List<DeadLetterGroupInfo> groups(int scanMax) {
        checkRange("scanMax", scanMax, MAX_SCAN);
        DeadLetterGroups groups = new DeadLetterGroups();
        scan(scanMax, groups::add);
        return groups.list();
    }

    /**
     * Returns the ids of the group's oldest dead letters, among the {@value #MAX_SCAN} oldest.
     *
     * @param key a group's key ({@link FailureShape#of})
     * @param max at most this many
     */
    List<Long> groupIds(String key, int max) {
        checkRange("max", max, MAX_SCAN);
        if (key == null || key.isEmpty()) {
            throw new IllegalArgumentException("a group's key is needed, was empty");
        }
        List<Long> ids = new ArrayList<>();
        scan(MAX_SCAN, page -> page.stream().filter(d -> key.equals(FailureShape.of(d.lastError())))
                .limit(max - ids.size()).forEach(d -> ids.add(d.id())));
        return ids;
    }

    /**
     * Returns the dead letters that mention it, oldest first.
     *
     * @param text the text (see {@link DeliveryLedger#findDeadLetters}); empty or null for all
     * @param afterId only dead letters with a greater id
     * @param max at most this many (1 to {@value #MAX_FOUND})
     */
    List<DeadLetterInfo> search(String text, long afterId, int max) {
        checkRange("max", max, MAX_FOUND);
        if (text != null && text.length() > DeliveryLedger.MAX_SEARCH_LENGTH) {
            throw new IllegalArgumentException("the text must be at most " + DeliveryLedger.MAX_SEARCH_LENGTH
                    + " characters, was " + text.length());
        }
        return ShortLivedConnection.read(database(), "searching the dead letters of " + queue(),
                c -> database().broker().ledger(c).findDeadLetters(queue(), text, true, afterId, max))
                .stream().map(DeadLetterInfo::of).collect(Collectors.toList());
    }

    /**
     * @param id a dead letter's id
     * @return its whole body, as stored
     * @throws IllegalArgumentException when this queue has no such dead letter
     */
    byte[] body(long id) {
        List<DeadLetter> one = ShortLivedConnection.read(database(), "reading dead letter " + id,
                c -> database().broker().ledger(c).deadLetters(queue(), id - 1, 1));
        if (one.isEmpty() || one.get(0).id() != id) {
            throw new IllegalArgumentException("no dead letter " + id + " on " + queue());
        }
        return one.get(0).message().body();
    }

    /** Reads the oldest dead letters without their bodies, a page at a time, up to {@code max}. */
    private void scan(int max, Consumer<List<DeadLetter>> each) {
        long after = 0;
        int seen = 0;
        while (seen < max) {
            int n = Math.min(SCAN_PAGE, max - seen);
            long from = after;
            List<DeadLetter> page = ShortLivedConnection.read(database(), "scanning the dead letters of " + queue(),
                    c -> database().broker().ledger(c).findDeadLetters(queue(), null, false, from, n));
            each.accept(page);
            seen += page.size();
            if (page.size() < n) {
                return;
            }
            after = page.get(page.size() - 1).id();
        }
    }

    private static void checkRange(String name, int value, int most) {
        if (value < 1 || value > most) {
            throw new IllegalArgumentException(name + " must be between 1 and " + most + ", was " + value);
        }
    }
}
