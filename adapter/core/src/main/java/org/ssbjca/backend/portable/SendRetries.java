package org.ssbjca.backend.portable;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What one node remembers of the scheduled sends whose SEND failed for a reason that passes ({@link
 * ScheduledSends#sendDue}): how many times in a row each failed, to back off exponentially and to warn of one that
 * keeps failing; and until when each of their conversations is held back, so that a send of the conversation due
 * later is not sent before the one tried again. A node that never saw the failures starts counting afresh. Thread-safe.
 */
final class SendRetries {

    /** How long after its first failure a send is tried again; doubled at each failure in a row. */
    static final Duration FIRST_BACKOFF = Duration.ofMillis(250);
    /** The longest a send waits between two tries. */
    static final Duration MAX_BACKOFF = Duration.ofSeconds(30);
    /** From this many failures in a row on, each failure is logged at WARN (before: DEBUG). */
    static final int WARN_FROM = 5;
    /** Remembered sends past which their counts are forgotten (sends cancelled while they waited leave theirs). */
    private static final int MAX_REMEMBERED = 10_000;

    private final Map<UUID, Integer> failures = new ConcurrentHashMap<>();
    private final Map<UUID, Hold> holds = new ConcurrentHashMap<>();

    /**
     * A conversation held back: until its kept send is tried again, and the last due time given to a send put behind
     * it.
     */
    private record Hold(Instant until, Instant last) {
    }

    /** One more failure in a row of a send: how many, and when it is tried again. */
    record Retry(int failures, Instant at) {

        boolean warn() {
            return failures >= WARN_FROM;
        }
    }

    /**
     * Counts a failure that passes of a scheduled send and holds its conversation back until it is tried again
     * ({@link #behind}).
     *
     * @return the failures in a row and the instant of the next try: {@link #FIRST_BACKOFF} after {@code now},
     *         doubled at each failure in a row up to {@link #MAX_BACKOFF}
     */
    Retry failed(UUID id, UUID conversation, Instant now) {
        if (failures.size() >= MAX_REMEMBERED) {
            failures.clear();
        }
        if (holds.size() >= MAX_REMEMBERED) {
            holds.values().removeIf(h -> !h.until().isAfter(now));
        }
        int n = failures.merge(id, 1, Integer::sum);
        Duration backoff = n > 20 ? MAX_BACKOFF : FIRST_BACKOFF.multipliedBy(1L << (n - 1));
        // whole microseconds, as the databases store them: a send put behind it is exactly one microsecond later
        Instant at = now.plus(backoff.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff)
                .truncatedTo(ChronoUnit.MICROS);
        holds.merge(conversation, new Hold(at, at), (known, next) -> new Hold(later(known.until(), at),
                later(known.last(), at)));
        return new Retry(n, at);
    }

    /**
     * Returns the due time of a send of a conversation held back, if its kept send is tried again after {@code now}:
     * one microsecond after the last given (the kept send's own, at first), so that the sends put behind it keep
     * their order; null when the conversation is not held back (any longer).
     */
    Instant behind(UUID conversation, Instant now) {
        Hold h = holds.get(conversation);
        if (h == null) {
            return null;
        }
        if (!h.until().isAfter(now)) {
            holds.remove(conversation, h);
            return null;
        }
        Instant due = h.last().plus(1, ChronoUnit.MICROS);
        holds.merge(conversation, new Hold(h.until(), due), (known, next) -> new Hold(known.until(),
                later(known.last(), due)));
        return due;
    }

    /** Forgets a send that was sent or dropped. */
    void done(UUID id) {
        failures.remove(id);
    }

    private static Instant later(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}
