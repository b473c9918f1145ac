package org.ssbjca.management;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.ssbjca.backend.BrokerAdmin;
import org.ssbjca.backend.EndpointCount;
import org.ssbjca.inbound.EndpointActivation;

/**
 * What an activation's queue and database hold now, read on one of the database's reading connections and
 * kept for {@value #MAX_AGE_MILLIS} ms, so that a scrape of many attributes, or several scrapers, query the database
 * once per interval whatever their rate. A failed reading is kept as long (a database that is down is not asked again
 * at every scrape).
 */
public final class QueueReadings {

    /** How long a reading serves. */
    public static final long MAX_AGE_MILLIS = 5_000;

    /** Endpoints begun longer ago than this count as stale in {@link Reading#staleEndpoints()}. */
    public static final Duration STALE_AFTER = Duration.ofHours(1);

    /**
     * One reading.
     *
     * @param depth the messages the queue holds
     * @param oldest when its oldest message arrived, or null when it is empty
     * @param pendingGroups conversation groups with messages in the queue
     * @param deadLetters the queue's messages in the dead-letter table
     * @param endpoints the database's conversation endpoints by service and state
     * @param staleEndpoints those begun over {@link #STALE_AFTER} ago
     * @param transmissionQueue messages in the database's transmission queue
     */
    public record Reading(long depth, Instant oldest, long pendingGroups, long deadLetters,
            List<EndpointCount> endpoints, List<EndpointCount> staleEndpoints, long transmissionQueue) {

        /** Returns the age of the oldest message in seconds, 0 when the queue is empty. */
        public long oldestAgeSeconds() {
            return oldest == null ? 0 : Math.max(0, Duration.between(oldest, Instant.now()).toSeconds());
        }
    }

    private final EndpointActivation activation;
    private Reading last;
    private IllegalStateException lastFailure;
    private long lastAtNanos;
    private boolean read;

    /** @param activation the activation whose queue and database are read */
    public QueueReadings(EndpointActivation activation) {
        this.activation = activation;
    }

    /**
     * Returns the latest reading, from the database when the last is older than {@link #MAX_AGE_MILLIS}.
     *
     * @throws IllegalStateException if the database cannot be read (kept as long as a reading)
     */
    public synchronized Reading get() {
        long now = System.nanoTime();
        if (!read || now - lastAtNanos >= TimeUnit.MILLISECONDS.toNanos(MAX_AGE_MILLIS)) {
            try {
                last = read(activation);
                lastFailure = null;
            } catch (IllegalStateException e) {
                last = null;
                lastFailure = e;
            }
            lastAtNanos = now;
            read = true;
        }
        if (lastFailure != null) {
            throw lastFailure;
        }
        return last;
    }

    /**
     * Returns the messages its queue holds, read now.
     *
     * @param activation an activation
     * @throws IllegalStateException if the database cannot be read
     */
    public static long depth(EndpointActivation activation) {
        return ShortLivedConnection.read(activation.database(), "reading the depth of " + activation.queue(),
                c -> activation.database().broker().admin(c).queueDepth(activation.queue()));
    }

    /**
     * Returns a reading of its queue and database, all on one of the database's reading connections, now.
     *
     * @param activation an activation
     * @throws IllegalStateException if the database cannot be read
     */
    public static Reading read(EndpointActivation activation) {
        String queue = activation.queue();
        return ShortLivedConnection.read(activation.database(), "reading the queue " + queue, c -> {
            BrokerAdmin admin = activation.database().broker().admin(c);
            return new Reading(admin.queueDepth(queue), admin.oldestMessage(queue), admin.pendingGroupCount(queue),
                    activation.database().broker().ledger(c).deadLetterCount(queue),
                    admin.conversationEndpoints(null), admin.conversationEndpoints(Instant.now().minus(STALE_AFTER)),
                    admin.transmissionQueueDepth());
        });
    }
}
