package org.ssbjca.backend;

import java.time.Instant;

/**
 * Conversation endpoints of one service in one state, as the leak detector and the hygiene operation count them.
 *
 * @param service the service of this side of the conversations
 * @param state the endpoints' state code (SO, SI, CO, DI, DO, ER, CD)
 * @param count how many endpoints
 * @param oldestBegun when the oldest of them began, or null when no begin time is known (SQL Server keeps none for a
 *     dialog begun with an explicit LIFETIME)
 */
public record EndpointCount(String service, String state, long count, Instant oldestBegun) {
}
