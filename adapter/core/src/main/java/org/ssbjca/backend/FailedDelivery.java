package org.ssbjca.backend;

import java.time.Instant;
import java.util.UUID;

/**
 * A message whose delivery failed, as the adapter counted it in {@code ssb.delivery_attempt}.
 *
 * @param conversation its conversation handle
 * @param sequence its sequence number in the conversation
 * @param attempts the failed deliveries counted
 * @param lastError the last failure's text, or null
 * @param lastAttempt when the last one failed
 */
public record FailedDelivery(UUID conversation, long sequence, int attempts, String lastError, Instant lastAttempt) {
}
