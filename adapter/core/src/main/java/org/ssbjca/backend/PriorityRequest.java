package org.ssbjca.backend;

import java.util.UUID;

/** A priority request message found in a queue: its group and its body. */
public final class PriorityRequest {

    private final UUID groupId;
    private final byte[] body;

    /**
     * @param groupId the group the message belongs to
     * @param body its body
     */
    public PriorityRequest(UUID groupId, byte[] body) {
        this.groupId = groupId;
        this.body = body == null ? new byte[0] : body.clone();
    }

    /** Returns the group. */
    public UUID groupId() {
        return groupId;
    }

    /** Returns a copy of the body. */
    public byte[] body() {
        return body.clone();
    }
}
