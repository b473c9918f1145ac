package org.ssbjca.backend.portable;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.UUID;
import org.ssbjca.backend.Jdbc;

/** One row of {@code ssb.conversation_endpoint}: one side of a dialog. */
final class Endpoint {

    static final String STARTED_OUTBOUND = "SO";
    static final String CONVERSING = "CO";
    static final String DISCONNECTED_INBOUND = "DI";
    static final String DISCONNECTED_OUTBOUND = "DO";
    static final String ERROR = "ER";

    final UUID handle;
    final UUID conversationId;
    final boolean initiator;
    final UUID groupId;
    final String service;
    final String farService;
    final String contract;
    final String state;
    final long sendSequence;
    final Instant lifetimeExpiresAt;

    Endpoint(UUID handle, UUID conversationId, boolean initiator, UUID groupId, String service, String farService,
            String contract, String state, long sendSequence, Instant lifetimeExpiresAt) {
        this.handle = handle;
        this.conversationId = conversationId;
        this.initiator = initiator;
        this.groupId = groupId;
        this.service = service;
        this.farService = farService;
        this.contract = contract;
        this.state = state;
        this.sendSequence = sendSequence;
        this.lifetimeExpiresAt = lifetimeExpiresAt;
    }

    static Endpoint read(ResultSet rs) throws SQLException {
        return new Endpoint(Jdbc.uuid(rs, "conversation_handle"), Jdbc.uuid(rs, "conversation_id"),
                rs.getBoolean("is_initiator"), Jdbc.uuid(rs, "conversation_group_id"), rs.getString("service_name"),
                rs.getString("far_service"), rs.getString("service_contract_name"), rs.getString("state").trim(),
                rs.getLong("send_sequence"), Jdbc.instant(rs, "lifetime_expires_at"));
    }

    /** Returns whether this side may still send (it has not ended, the other side has not ended it). */
    boolean isOpen() {
        return STARTED_OUTBOUND.equals(state) || CONVERSING.equals(state);
    }

    boolean hasEnded() {
        return DISCONNECTED_OUTBOUND.equals(state);
    }

    String side() {
        return initiator ? "initiator" : "target";
    }
}
