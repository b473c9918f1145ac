package org.ssbjca.api;

import java.time.Duration;
import java.util.Objects;
import java.util.UUID;

/**
 * The optional clauses of BEGIN DIALOG CONVERSATION. Immutable; start from {@link #defaults()} and chain the
 * {@code with...} methods.
 *
 * <pre>{@code
 * DialogOptions.defaults().withLifetime(Duration.ofMinutes(10)).withEncryption(false)
 * }</pre>
 */
public final class DialogOptions {

    private static final DialogOptions DEFAULTS = new DialogOptions(null, null, null, false);

    private final UUID relatedConversationGroup;
    private final UUID relatedConversation;
    private final Duration lifetime;
    private final boolean encryption;

    private DialogOptions(UUID relatedConversationGroup, UUID relatedConversation, Duration lifetime,
            boolean encryption) {
        this.relatedConversationGroup = relatedConversationGroup;
        this.relatedConversation = relatedConversation;
        this.lifetime = lifetime;
        this.encryption = encryption;
    }

    /** Returns the default options: no related group, the broker's maximum lifetime, ENCRYPTION = OFF. */
    public static DialogOptions defaults() {
        return DEFAULTS;
    }

    /**
     * {@code WITH RELATED_CONVERSATION_GROUP}: put the new dialog's initiator side into this conversation group
     * (created if it does not exist). Clears any related conversation.
     *
     * @param group the conversation group id
     * @return the new options
     */
    public DialogOptions withRelatedConversationGroup(UUID group) {
        return new DialogOptions(Objects.requireNonNull(group, "group"), null, lifetime, encryption);
    }

    /**
     * {@code WITH RELATED_CONVERSATION}: put the new dialog's initiator side into the group of an existing
     * conversation. Clears any related conversation group.
     *
     * @param conversation an existing conversation of this database
     * @return the new options
     */
    public DialogOptions withRelatedConversation(Conversation conversation) {
        return new DialogOptions(null, Objects.requireNonNull(conversation, "conversation").handle(), lifetime,
                encryption);
    }

    /**
     * {@code WITH LIFETIME}: when the dialog is still open after this time, the broker ends it with an Error
     * message to both sides.
     *
     * @param lifetime at least one second, at most {@link Integer#MAX_VALUE} seconds
     * @return the new options
     * @throws IllegalArgumentException if out of range
     */
    public DialogOptions withLifetime(Duration lifetime) {
        Objects.requireNonNull(lifetime, "lifetime");
        if (lifetime.getSeconds() < 1 || lifetime.getSeconds() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("lifetime must be between 1 and " + Integer.MAX_VALUE
                    + " seconds: " + lifetime);
        }
        return new DialogOptions(relatedConversationGroup, relatedConversation, lifetime, encryption);
    }

    /**
     * {@code WITH ENCRYPTION = ON | OFF}. The portable backends accept the setting and ignore it (messages never leave
     * the database).
     *
     * @param encryption whether messages sent outside the instance must be encrypted
     * @return the new options
     */
    public DialogOptions withEncryption(boolean encryption) {
        return new DialogOptions(relatedConversationGroup, relatedConversation, lifetime, encryption);
    }

    /** Returns the related conversation group, or null. */
    public UUID relatedConversationGroup() {
        return relatedConversationGroup;
    }

    /** Returns the handle of the related conversation, or null. */
    public UUID relatedConversation() {
        return relatedConversation;
    }

    /** Returns the lifetime, or null for the broker's maximum. */
    public Duration lifetime() {
        return lifetime;
    }

    /** Returns whether ENCRYPTION = ON. */
    public boolean encryption() {
        return encryption;
    }

    @Override
    public String toString() {
        return "DialogOptions[relatedGroup=" + relatedConversationGroup + ", relatedConversation="
                + relatedConversation + ", lifetime=" + lifetime + ", encryption=" + encryption + "]";
    }
}
