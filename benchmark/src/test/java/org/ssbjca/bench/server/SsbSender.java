package org.ssbjca.bench.server;

import jakarta.annotation.Resource;
import jakarta.ejb.Stateless;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.api.ServiceBrokerConnection;
import org.ssbjca.api.ServiceBrokerConnectionFactory;

/** Sends through ssb-jca's connection factory, each call in its own container transaction (REQUIRED). */
@Stateless
public class SsbSender {

    static final String FROM = "BenchClient";
    static final String TO = "BenchService";
    static final String CONTRACT = "BenchContract";
    static final String TYPE = "BenchRequest";

    @Resource(lookup = "java:/ssb/ConnectionFactory")
    private ServiceBrokerConnectionFactory factory;

    /**
     * @param n dialogs to begin
     * @return their initiator handles
     */
    public List<UUID> beginDialogs(int n) {
        List<UUID> handles = new ArrayList<>();
        try (ServiceBrokerConnection broker = factory.getConnection()) {
            for (int i = 0; i < n; i++) {
                handles.add(broker.beginDialog(FROM, TO, CONTRACT).handle());
            }
        }
        return handles;
    }

    /**
     * @param handle an initiator handle
     * @param id the message's number
     * @param size its body's size
     */
    public void send(UUID handle, int id, int size) {
        try (ServiceBrokerConnection broker = factory.getConnection()) {
            broker.send(Conversation.ofHandle(handle), TYPE, Bodies.of(id, size));
        }
    }

    /**
     * A scheduled send ({@code send} with a delay) in this call's container transaction.
     *
     * @param handle an initiator handle
     * @param id the message's number
     * @param size its body's size
     * @param delayMillis the delay
     */
    public void sendDelayed(UUID handle, int id, int size, long delayMillis) {
        try (ServiceBrokerConnection broker = factory.getConnection()) {
            broker.send(Conversation.ofHandle(handle), TYPE, Bodies.of(id, size), java.time.Duration.ofMillis(
                    delayMillis));
        }
    }

    /**
     * @param handle an initiator handle
     * @param firstId the first message's number
     * @param count messages to send, in this one transaction
     * @param size body size
     */
    public void sendMany(UUID handle, int firstId, int count, int size) {
        try (ServiceBrokerConnection broker = factory.getConnection()) {
            for (int i = 0; i < count; i++) {
                broker.send(Conversation.ofHandle(handle), TYPE, Bodies.of(firstId + i, size));
            }
        }
    }

    /**
     * The outbound path: BEGIN DIALOG and one SEND in the caller's container transaction (REQUIRED: this call's own).
     *
     * @param id the message's number
     * @param size its body's size
     */
    public void beginAndSend(int id, int size) {
        try (ServiceBrokerConnection broker = factory.getConnection()) {
            broker.send(broker.beginDialog(FROM, TO, CONTRACT), TYPE, Bodies.of(id, size));
        }
    }

    /**
     * The same in one call ({@code beginDialogAndSend}).
     *
     * @param id the message's number
     * @param size its body's size
     */
    public void beginAndSendInOneCall(int id, int size) {
        try (ServiceBrokerConnection broker = factory.getConnection()) {
            broker.beginDialogAndSend(FROM, TO, CONTRACT, DialogOptions.defaults(), TYPE, Bodies.of(id, size));
        }
    }
}
