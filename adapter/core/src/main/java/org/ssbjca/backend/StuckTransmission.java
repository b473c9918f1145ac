package org.ssbjca.backend;

import java.time.Instant;
import java.util.UUID;

/**
 * A message waiting in the transmission queue ({@code sys.transmission_queue}; the portable schema's
 * {@code ssb.transmission_queue}).
 *
 * @param toService the service it is sent to (the portable schema: the queue it waits for)
 * @param conversation the conversation handle of the sending side
 * @param enqueued when it entered the transmission queue
 * @param status {@code transmission_status}: why it waits; blank while the broker has not tried to send it yet
 */
public record StuckTransmission(String toService, UUID conversation, Instant enqueued, String status) {

    /** Returns what to do about it ({@link TransmissionStatus#explain}). */
    public String action() {
        return TransmissionStatus.explain(status);
    }
}
