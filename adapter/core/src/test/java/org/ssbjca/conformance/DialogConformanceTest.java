package org.ssbjca.conformance;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.ssbjca.api.BrokerException;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.ConversationEndedException;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.api.ReceiveRequest;

/** BEGIN DIALOG and SEND: endpoints, groups, sequence numbers, contracts and validation. */
class DialogConformanceTest {

    @BackendTest
    void beginDialogCreatesOnlyTheInitiatorEndpointUntilTheFirstSend(Db db) {
        Db.Objects o = db.objects();
        Conversation c = db.tx(s -> s.beginDialog(o.initiatorService, o.targetService, o.contract,
                DialogOptions.defaults()));
        assertNotNull(c.conversationId());
        assertNotNull(c.conversationGroupId());
        assertEquals("SO", db.state(c.handle()));
        assertNull(db.admin(a -> a.peerHandle(c.handle())), "no target endpoint before the first message");

        db.run(s -> s.send(c.handle(), o.request, bytes("hello")));

        assertEquals("CO", db.state(c.handle()));
        UUID target = db.admin(a -> a.peerHandle(c.handle()));
        assertNotNull(target, "the first message creates the target endpoint");
        assertNotEquals(c.handle(), target);
        assertEquals("CO", db.state(target));
    }

    @BackendTest
    void sentMessageArrivesWithItsColumns(Db db) {
        Db.Objects o = db.objects();
        Conversation c = begin(db, o);
        db.run(s -> s.send(c.handle(), o.request, bytes("payload")));

        List<BrokerMessage> got = db.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue).top(10)));

        assertEquals(1, got.size());
        BrokerMessage m = got.get(0);
        assertEquals(o.request, m.messageTypeName());
        assertArrayEquals(bytes("payload"), m.body());
        assertEquals("payload", m.bodyAsText());
        assertEquals(o.targetService, m.serviceName());
        assertEquals(o.contract, m.serviceContractName());
        assertEquals(c.conversationId(), m.conversationId(), "both sides share the conversation id");
        assertEquals(db.admin(a -> a.peerHandle(c.handle())), m.conversationHandle());
        assertNotEquals(c.conversationGroupId(), m.conversationGroupId(), "the target side has its own group");
        assertEquals(0, m.messageSequenceNumber(), "the first message of a conversation has sequence number 0");
        assertTrue(!m.isSystemMessage());
    }

    /**
     * Issue 45 point 10: a queue with RETENTION = ON keeps the messages its conversations received and sent until
     * they end; the depth counts only the messages not yet received.
     */
    @BackendTest
    void aRetainingQueuesDepthCountsOnlyMessagesNotYetReceived(Db db) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(db.broker().kind() == org.ssbjca.backend.BackendKind.SQLSERVER,
                "RETENTION is a SQL Server queue's option");
        Db.Objects o = db.objects();
        try (java.sql.Connection c = db.fixture().connect(); java.sql.Statement s = c.createStatement()) {
            s.execute("ALTER QUEUE [" + o.targetQueue + "] WITH RETENTION = ON");
            s.execute("ALTER QUEUE [" + o.initiatorQueue + "] WITH RETENTION = ON");
            c.commit();
        }
        beginAndSend(db, o, o.request, bytes("kept"));
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> db.depth(o.targetQueue) == 1);

        assertEquals(1, db.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue))).size());
        assertEquals(0, db.depth(o.targetQueue), "the received message the queue keeps is not counted");
        assertEquals(0, db.depth(o.initiatorQueue), "nor the sent message the initiator's queue keeps");
    }

    @BackendTest
    void replyReachesTheInitiatorOnTheSameConversation(Db db) {
        Db.Objects o = db.objects();
        Conversation c = begin(db, o);
        db.run(s -> s.send(c.handle(), o.request, bytes("ping")));
        BrokerMessage request = db.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue))).get(0);

        db.run(s -> s.send(request.conversationHandle(), o.reply, bytes("pong")));

        BrokerMessage reply = db.tx(s -> s.receive(ReceiveRequest.from(o.initiatorQueue))).get(0);
        assertEquals(c.handle(), reply.conversationHandle());
        assertEquals(c.conversationGroupId(), reply.conversationGroupId());
        assertEquals("pong", reply.bodyAsText());
        assertEquals(o.initiatorService, reply.serviceName());
    }

    @BackendTest
    void eachTargetEndpointGetsItsOwnConversationGroup(Db db) {
        Db.Objects o = db.objects();
        Conversation first = begin(db, o);
        Conversation second = begin(db, o);
        db.run(s -> {
            s.send(first.handle(), o.request, bytes("1"));
            s.send(second.handle(), o.request, bytes("2"));
        });
        BrokerMessage a = db.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue))).get(0);
        BrokerMessage b = db.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue))).get(0);
        assertNotEquals(a.conversationGroupId(), b.conversationGroupId());
    }

    @BackendTest
    void relatedConversationGroupPutsInitiatorsTogether(Db db) {
        Db.Objects o = db.objects();
        UUID group = UUID.randomUUID();
        DialogOptions related = DialogOptions.defaults().withRelatedConversationGroup(group);
        Conversation first = db.tx(s -> s.beginDialog(o.initiatorService, o.targetService, o.contract, related));
        Conversation second = db.tx(s -> s.beginDialog(o.initiatorService, o.targetService, o.contract,
                DialogOptions.defaults().withRelatedConversation(first)));
        assertEquals(group, first.conversationGroupId());
        assertEquals(group, second.conversationGroupId());
        db.run(s -> {
            s.send(first.handle(), o.request, bytes("1"));
            s.send(second.handle(), o.request, bytes("2"));
        });
        List<UUID> targetGroups = new java.util.ArrayList<>();
        for (int i = 0; i < 2; i++) {
            List<BrokerMessage> requests = db.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue).top(10)));
            assertEquals(1, requests.size(), "the target side is not grouped: one RECEIVE takes one conversation");
            BrokerMessage req = requests.get(0);
            targetGroups.add(req.conversationGroupId());
            db.run(s -> s.send(req.conversationHandle(), o.reply, req.body()));
        }

        List<BrokerMessage> replies = db.tx(s -> s.receive(ReceiveRequest.from(o.initiatorQueue).top(10)));

        assertEquals(2, replies.size(), "one RECEIVE returns the whole related group");
        assertEquals(group, replies.get(0).conversationGroupId());
        assertEquals(group, replies.get(1).conversationGroupId());
        assertNotEquals(targetGroups.get(0), targetGroups.get(1), "each target endpoint has a group of its own");
        assertTrue(!targetGroups.contains(group), "the related group is the initiator's only");
    }

    @BackendTest
    void sequenceNumbersCountUpWithinAConversation(Db db) {
        Db.Objects o = db.objects();
        Conversation c = begin(db, o);
        db.run(s -> {
            for (int i = 0; i < 5; i++) {
                s.send(c.handle(), o.request, bytes("m" + i));
            }
        });
        List<BrokerMessage> got = db.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue).top(10)));
        assertEquals(5, got.size());
        for (int i = 0; i < 5; i++) {
            assertEquals(i, got.get(i).messageSequenceNumber());
            assertEquals("m" + i, got.get(i).bodyAsText());
        }
    }

    @BackendTest
    void messageTypeOutsideTheContractIsRefused(Db db) {
        Db.Objects o = db.objects();
        Conversation c = begin(db, o);
        BrokerException e = assertThrows(BrokerException.class,
                () -> db.run(s -> s.send(c.handle(), "DEFAULT", bytes("x"))));
        assertTrue(e.getMessage().contains("DEFAULT"), e.getMessage());
    }

    @BackendTest
    void aMessageTypeThatDoesNotExistIsReportedAsMissing(Db db) {
        Db.Objects o = db.objects();
        Conversation c = begin(db, o);
        String missing = "test/no-such-type-" + UUID.randomUUID();
        BrokerException e = assertThrows(BrokerException.class,
                () -> db.run(s -> s.send(c.handle(), missing, bytes("x"))));
        String message = e.getMessage();
        assertTrue(message.contains(missing), message);
        // SQL Server: error 8428, 'The message type "..." is not found.'
        assertTrue(message.contains("message type '" + missing + "' does not exist")
                || message.contains("is not found"), message);
        assertTrue(!message.contains("not part of"), message);
    }

    @BackendTest
    void messageTypeSentByTheWrongSideIsRefused(Db db) {
        Db.Objects o = db.objects();
        Conversation c = begin(db, o);
        assertThrows(BrokerException.class, () -> db.run(s -> s.send(c.handle(), o.reply, bytes("x"))),
                "Reply is SENT BY TARGET");
        db.run(s -> s.send(c.handle(), o.any, bytes("x")));
        assertEquals(1, db.depth(o.targetQueue), "SENT BY ANY works for the initiator");
    }

    @BackendTest
    void emptyValidationRefusesABody(Db db) {
        Db.Objects o = db.objects();
        Conversation c = begin(db, o);
        db.run(s -> s.send(c.handle(), o.empty, null));
        assertEquals(1, db.depth(o.targetQueue));
        assertBodyNeverArrives(db, o, c, o.empty, bytes("not empty"));
    }

    @BackendTest
    void wellFormedXmlValidationRefusesMalformedXml(Db db) {
        Db.Objects o = db.objects();
        Conversation c = begin(db, o);
        db.run(s -> s.send(c.handle(), o.xml, bytes("<ok a='1'/>")));
        BrokerMessage ok = db.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue))).get(0);
        assertEquals("ok", ok.bodyAsXml().getDocumentElement().getLocalName());
        assertBodyNeverArrives(db, o, c, o.xml, bytes("<open>"));
    }

    /**
     * A body its message type's validation refuses is never put on the target queue. The portable backends refuse the
     * SEND; SQL Server may accept it and answer the sender with an Error message. Either way the target never sees it.
     */
    private static void assertBodyNeverArrives(Db db, Db.Objects o, Conversation c, String type, byte[] body) {
        long before = db.depth(o.targetQueue);
        try {
            db.run(s -> s.send(c.handle(), type, body));
        } catch (BrokerException refused) {
            return;
        }
        List<BrokerMessage> back = db.tx(s -> s.receive(ReceiveRequest.from(o.initiatorQueue)
                .timeout(Duration.ofSeconds(5))));
        assertTrue(!back.isEmpty() && back.get(0).isError(), "the sender learns of the invalid body");
        assertEquals(before, db.depth(o.targetQueue));
    }

    @BackendTest
    void sendOnAnUnknownHandleFailsClearly(Db db) {
        db.fixture();
        UUID unknown = UUID.randomUUID();
        ConversationEndedException e = assertThrows(ConversationEndedException.class,
                () -> db.run(s -> s.send(unknown, "DEFAULT", bytes("x"))));
        assertTrue(e.getMessage().contains(unknown.toString()) || e.getCause() != null, e.getMessage());
    }

    @BackendTest
    void beginDialogFromAnUnknownServiceFails(Db db) {
        Db.Objects o = db.objects();
        assertThrows(BrokerException.class, () -> db.tx(s -> s.beginDialog("no such service " + UUID.randomUUID(),
                o.targetService, o.contract, DialogOptions.defaults())));
    }

    /**
     * The first SEND in the transaction that began the dialog (the adapter's shortest path: it knows the endpoint it
     * has just inserted and reads nothing back) makes what a SEND in a later transaction makes: both endpoints
     * conversing, the target's own group that a RECEIVE finds, sequence numbers going on from 0.
     */
    @BackendTest
    void theFirstSendInTheTransactionThatBeganTheDialogMakesWhatALaterOneMakes(Db db) {
        Db.Objects o = db.objects();
        Conversation later = begin(db, o);
        db.run(s -> s.send(later.handle(), o.request, bytes("later 0")));
        Conversation same = db.tx(s -> {
            Conversation c = s.beginDialog(o.initiatorService, o.targetService, o.contract, DialogOptions.defaults());
            s.send(c.handle(), o.request, bytes("same 0"));
            return c;
        });
        db.run(s -> s.send(same.handle(), o.request, bytes("same 1")));
        assertConversing(db, o, later, same, "same");
    }

    /** Every rule of a SEND holds for the first SEND in the transaction that began the dialog. */
    @BackendTest
    void theFirstSendInTheTransactionThatBeganTheDialogKeepsEveryRule(Db db) {
        Db.Objects o = db.objects();
        long endpoints = db.endpoints();
        String missing = "test/no-such-type-" + UUID.randomUUID();
        assertThrows(BrokerException.class, () -> beginAndSend(db, o, "DEFAULT", bytes("x")), "not in the contract");
        BrokerException e = assertThrows(BrokerException.class, () -> beginAndSend(db, o, missing, bytes("x")));
        assertTrue(e.getMessage().contains(missing), e.getMessage());
        assertThrows(BrokerException.class, () -> beginAndSend(db, o, o.reply, bytes("x")), "SENT BY TARGET");
        assertThrows(BrokerException.class, () -> db.run(s -> {
            Conversation c = s.beginDialog(o.initiatorService, o.targetService, o.contract, DialogOptions.defaults());
            s.endConversationWithCleanup(c.handle());
            s.send(c.handle(), o.request, bytes("x"));
        }), "a dialog ended WITH CLEANUP in the same transaction cannot send");
        assertEquals(endpoints, db.endpoints(), "the refused SENDs' transactions left no endpoint");
        assertEquals(0, db.depth(o.targetQueue));
        Conversation empty = beginAndSend(db, o, o.empty, null);
        assertEquals(1, db.depth(o.targetQueue), "an EMPTY message type with no body is sent");
        assertEquals("CO", db.state(empty.handle()));
    }

    /** The first SEND in the transaction that began the dialog, while the target queue is disabled, waits for it. */
    @BackendTest
    void theFirstSendInTheTransactionThatBeganTheDialogWaitsForADisabledQueue(Db db) {
        Db.Objects o = db.objects();
        assertWaitsForADisabledQueue(db, o, () -> beginAndSend(db, o, o.request, bytes("waited")));
    }

    /**
     * A SEND on a conversation whose two sides exist (the adapter's one-statement SEND on PostgreSQL, which sends only
     * when every check passes) keeps every rule: bodies that need parsing, a disabled queue, the sending side, the
     * contract, the validation.
     */
    @BackendTest
    void aSendOnAConversationWithBothSidesKeepsEveryRule(Db db) {
        Db.Objects o = db.objects();
        Conversation c = begin(db, o);
        db.run(s -> s.send(c.handle(), o.request, bytes("first")));
        db.run(s -> s.send(c.handle(), o.xml, bytes("<ok/>")));
        enable(db, o.targetQueue, false);
        db.run(s -> s.send(c.handle(), o.request, bytes("waited")));
        assertTrue(db.admin(a -> a.transmissionQueueDepth()) >= 1, "the message waits for the disabled queue");
        enable(db, o.targetQueue, true);
        List<BrokerMessage> got = db.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue).top(10)
                .timeout(Duration.ofSeconds(5))));
        assertEquals(List.of("first", "<ok/>", "waited"), got.stream().map(BrokerMessage::bodyAsText).toList());
        assertEquals(List.of(0L, 1L, 2L), got.stream().map(BrokerMessage::messageSequenceNumber).toList());

        assertThrows(BrokerException.class, () -> db.run(s -> s.send(c.handle(), o.reply, bytes("x"))),
                "Reply is SENT BY TARGET");
        assertThrows(BrokerException.class, () -> db.run(s -> s.send(c.handle(), "DEFAULT", bytes("x"))));
        assertEquals(0, db.depth(o.targetQueue), "the refused SENDs put nothing on the queue");
        assertBodyNeverArrives(db, o, c, o.xml, bytes("<open>"));
        assertBodyNeverArrives(db, o, c, o.empty, bytes("not empty"));
    }

    /**
     * BEGIN DIALOG and SEND in one call (on PostgreSQL one statement) makes what the two calls make: both endpoints
     * conversing, the initiator's group, the target's own group that a RECEIVE finds, sequence numbers going on from 0.
     */
    @BackendTest
    void beginDialogAndSendMakesWhatBeginDialogThenSendMake(Db db) {
        Db.Objects o = db.objects();
        Conversation two = beginAndSend(db, o, o.request, bytes("two 0"));
        Conversation one = db.tx(s -> s.beginDialogAndSend(o.initiatorService, o.targetService, o.contract,
                DialogOptions.defaults().withLifetime(Duration.ofHours(1)), o.request, bytes("one 0")));
        db.run(s -> s.send(one.handle(), o.request, bytes("one 1")));
        assertConversing(db, o, two, one, "one");
    }

    /**
     * Both dialogs conversing, with a target endpoint each; their three messages found by RECEIVEs; {@code checked}'s
     * two ({@code name} 0 and 1) in its target's own group with sequence numbers 0 and 1 and the target's columns; a
     * reply from the target reaching the initiator's handle and group.
     */
    private static void assertConversing(Db db, Db.Objects o, Conversation other, Conversation checked, String name) {
        for (Conversation c : List.of(other, checked)) {
            assertEquals("CO", db.state(c.handle()));
            UUID target = db.admin(a -> a.peerHandle(c.handle()));
            assertNotNull(target, "the first SEND created the target endpoint");
            assertEquals("CO", db.state(target));
        }
        List<BrokerMessage> got = new java.util.ArrayList<>();
        for (int i = 0; i < 2; i++) {
            got.addAll(db.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue).top(10)
                    .timeout(Duration.ofSeconds(5)))));
        }
        assertEquals(3, got.size(), "each conversation's group is found by a RECEIVE: " + got);
        List<BrokerMessage> mine = got.stream().filter(m -> m.conversationId().equals(checked.conversationId()))
                .toList();
        assertEquals(List.of(name + " 0", name + " 1"), mine.stream().map(BrokerMessage::bodyAsText).toList());
        assertEquals(List.of(0L, 1L), mine.stream().map(BrokerMessage::messageSequenceNumber).toList());
        assertEquals(db.admin(a -> a.peerHandle(checked.handle())), mine.get(0).conversationHandle());
        assertNotEquals(checked.conversationGroupId(), mine.get(0).conversationGroupId());
        assertEquals(o.targetService, mine.get(0).serviceName());
        assertEquals(o.contract, mine.get(0).serviceContractName());
        assertEquals(o.request, mine.get(0).messageTypeName());

        db.run(s -> s.send(mine.get(0).conversationHandle(), o.reply, bytes("back")));
        BrokerMessage reply = db.tx(s -> s.receive(ReceiveRequest.from(o.initiatorQueue)
                .timeout(Duration.ofSeconds(5)))).get(0);
        assertEquals(checked.handle(), reply.conversationHandle());
        assertEquals(checked.conversationGroupId(), reply.conversationGroupId(), "the initiator's group");
        assertEquals("back", reply.bodyAsText());
    }

    /**
     * BEGIN DIALOG and SEND in one call refuses what the two calls refuse, with the same words, and takes the same
     * longer ways (a body to parse, an EMPTY type).
     */
    @BackendTest
    void beginDialogAndSendKeepsEveryRuleOfBoth(Db db) {
        Db.Objects o = db.objects();
        String unknown = "no such " + UUID.randomUUID();
        List<String[]> refused = new java.util.ArrayList<>(List.of(
                new String[] {unknown, o.targetService, o.contract, o.request, "x"},
                new String[] {o.initiatorService, o.targetService, unknown, o.request, "x"},
                new String[] {o.initiatorService, o.targetService, o.contract, "DEFAULT", "x"},
                new String[] {o.initiatorService, o.targetService, o.contract, unknown, "x"},
                new String[] {o.initiatorService, o.targetService, o.contract, o.reply, "x"},
                new String[] {o.initiatorService, o.targetService, o.contract, o.xml, "<open>"},
                new String[] {o.initiatorService, o.targetService, o.contract, o.empty, "not empty"}));
        if (db.broker().kind() != org.ssbjca.backend.BackendKind.SQLSERVER) {
            refused.add(new String[] {o.initiatorService, unknown, o.contract, o.request, "x"});
        }
        long endpoints = db.endpoints();
        for (String[] r : refused) {
            BrokerException twoCalls = assertThrows(BrokerException.class, () -> db.run(s -> {
                Conversation c = s.beginDialog(r[0], r[1], r[2], DialogOptions.defaults());
                s.send(c.handle(), r[3], bytes(r[4]));
            }));
            BrokerException oneCall = assertThrows(BrokerException.class, () -> db.run(s -> s.beginDialogAndSend(
                    r[0], r[1], r[2], DialogOptions.defaults(), r[3], bytes(r[4]))), java.util.Arrays.toString(r));
            assertEquals(twoCalls.getClass(), oneCall.getClass(), java.util.Arrays.toString(r));
            assertEquals(twoCalls.getMessage(), oneCall.getMessage(), java.util.Arrays.toString(r));
        }
        assertEquals(endpoints, db.endpoints(), "the refused calls' transactions left no endpoint");
        assertEquals(0, db.depth(o.targetQueue));

        db.run(s -> s.beginDialogAndSend(o.initiatorService, o.targetService, o.contract, DialogOptions.defaults(),
                o.xml, bytes("<ok/>")));
        db.run(s -> s.beginDialogAndSend(o.initiatorService, o.targetService, o.contract, DialogOptions.defaults(),
                o.empty, null));
        List<BrokerMessage> got = new java.util.ArrayList<>();
        for (int i = 0; i < 2; i++) {
            got.addAll(db.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue).top(10)
                    .timeout(Duration.ofSeconds(5)))));
        }
        assertEquals(java.util.Set.of(o.xml, o.empty),
                got.stream().map(BrokerMessage::messageTypeName).collect(java.util.stream.Collectors.toSet()));
    }

    /** BEGIN DIALOG and SEND in one call, while the target queue is disabled: the message waits for it. */
    @BackendTest
    void beginDialogAndSendWaitsForADisabledQueue(Db db) {
        Db.Objects o = db.objects();
        assertWaitsForADisabledQueue(db, o, () -> db.tx(s -> s.beginDialogAndSend(o.initiatorService,
                o.targetService, o.contract, DialogOptions.defaults(), o.request, bytes("waited"))));
    }

    /**
     * With the target queue disabled, {@code beginAndSend} (a dialog's BEGIN and first SEND of "waited") puts the
     * message on the transmission queue; once enabled, it arrives with sequence number 0.
     */
    private static void assertWaitsForADisabledQueue(Db db, Db.Objects o,
            java.util.function.Supplier<Conversation> beginAndSend) {
        enable(db, o.targetQueue, false);
        Conversation c = beginAndSend.get();
        assertTrue(db.admin(a -> a.transmissionQueueDepth()) >= 1, "the message waits for the disabled queue");
        enable(db, o.targetQueue, true);
        List<BrokerMessage> got = db.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue).top(10)
                .timeout(Duration.ofSeconds(5))));
        assertEquals(1, got.size(), got.toString());
        assertEquals("waited", got.get(0).bodyAsText());
        assertEquals(0, got.get(0).messageSequenceNumber());
        assertEquals(c.conversationId(), got.get(0).conversationId());
    }

    private static void enable(Db db, String queue, boolean enabled) {
        db.admin(a -> {
            a.setQueueEnabled(queue, enabled);
            return null;
        });
    }

    private static Conversation beginAndSend(Db db, Db.Objects o, String type, byte[] body) {
        return db.tx(s -> {
            Conversation c = s.beginDialog(o.initiatorService, o.targetService, o.contract, DialogOptions.defaults());
            s.send(c.handle(), type, body);
            return c;
        });
    }

    /**
     * A BEGIN DIALOG that fails a check makes nothing, and the transaction goes on (the portable schema checks the
     * target service and the contract at BEGIN DIALOG; SQL Server checks the contract, and the target service only
     * when a message reaches it).
     */
    @BackendTest
    void aRefusedBeginDialogMakesNothingAndTheTransactionGoesOn(Db db) {
        Db.Objects o = db.objects();
        long endpoints = db.endpoints();
        String unknown = "no such " + UUID.randomUUID();
        Conversation c = db.tx(s -> {
            assertThrows(BrokerException.class,
                    () -> s.beginDialog(unknown, o.targetService, o.contract, DialogOptions.defaults()));
            assertThrows(BrokerException.class,
                    () -> s.beginDialog(o.initiatorService, o.targetService, unknown, DialogOptions.defaults()));
            if (db.broker().kind() != org.ssbjca.backend.BackendKind.SQLSERVER) {
                assertThrows(BrokerException.class,
                        () -> s.beginDialog(o.initiatorService, unknown, o.contract, DialogOptions.defaults()));
            }
            Conversation ok = s.beginDialog(o.initiatorService, o.targetService, o.contract, DialogOptions.defaults());
            s.send(ok.handle(), o.request, bytes("after the refusals"));
            return ok;
        });
        assertEquals(endpoints + 2, db.endpoints(), "only the dialog that was begun and sent on");
        assertEquals("CO", db.state(c.handle()));
        assertEquals(List.of("after the refusals"), db.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue).top(10)))
                .stream().map(BrokerMessage::bodyAsText).toList());
    }

    static Conversation begin(Db db, Db.Objects o) {
        return db.tx(s -> s.beginDialog(o.initiatorService, o.targetService, o.contract, DialogOptions.defaults()));
    }

    static byte[] bytes(String s) {
        return s.getBytes(UTF_8);
    }
}
