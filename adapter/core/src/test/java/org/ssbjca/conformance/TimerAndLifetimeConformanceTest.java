package org.ssbjca.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ssbjca.conformance.DialogConformanceTest.begin;
import static org.ssbjca.conformance.DialogConformanceTest.bytes;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.ConversationEndedException;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.api.ReceiveRequest;

/** BEGIN CONVERSATION TIMER and the LIFETIME of a dialog. */
class TimerAndLifetimeConformanceTest {

    @BackendTest
    void aConversationTimerDeliversDialogTimer(Db db) {
        Db.Objects o = db.objects();
        Conversation c = begin(db, o);
        long start = System.nanoTime();
        db.run(s -> s.beginConversationTimer(c.handle(), Duration.ofSeconds(1)));

        List<BrokerMessage> got = db.tx(s -> s.receive(ReceiveRequest.from(o.initiatorQueue)
                .timeout(Duration.ofSeconds(10))));
        long millis = (System.nanoTime() - start) / 1_000_000;

        assertEquals(1, got.size());
        assertTrue(got.get(0).isDialogTimer(), got.get(0).toString());
        assertEquals(c.handle(), got.get(0).conversationHandle());
        assertTrue(millis >= 900, "not before the timeout: " + millis + " ms");
    }

    @BackendTest
    void aNewTimerReplacesThePreviousOne(Db db) {
        Db.Objects o = db.objects();
        Conversation c = begin(db, o);
        db.run(s -> s.beginConversationTimer(c.handle(), Duration.ofSeconds(1)));
        db.run(s -> s.beginConversationTimer(c.handle(), Duration.ofSeconds(3)));
        assertTrue(db.tx(s -> s.receive(ReceiveRequest.from(o.initiatorQueue).timeout(Duration.ofMillis(1800))))
                .isEmpty(), "the one-second timer was replaced");
        List<BrokerMessage> got = db.tx(s -> s.receive(ReceiveRequest.from(o.initiatorQueue)
                .timeout(Duration.ofSeconds(10))));
        assertEquals(1, got.size());
        assertTrue(got.get(0).isDialogTimer());
    }

    @BackendTest
    void anExpiredLifetimeSendsErrorToBothSides(Db db) {
        Db.Objects o = db.objects();
        Conversation c = db.tx(s -> s.beginDialog(o.initiatorService, o.targetService, o.contract,
                DialogOptions.defaults().withLifetime(Duration.ofSeconds(2))));
        db.run(s -> s.send(c.handle(), o.request, bytes("slow")));
        BrokerMessage request = db.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue))).get(0);
        UUID target = request.conversationHandle();

        List<BrokerMessage> atInitiator = db.tx(s -> s.receive(ReceiveRequest.from(o.initiatorQueue)
                .timeout(Duration.ofSeconds(15))));
        List<BrokerMessage> atTarget = db.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue)
                .timeout(Duration.ofSeconds(15))));

        assertEquals(1, atInitiator.size());
        assertTrue(atInitiator.get(0).isError(), atInitiator.get(0).toString());
        assertTrue(atInitiator.get(0).errorCode() < 0, "an error raised by the broker has a negative code");
        assertEquals(1, atTarget.size());
        assertTrue(atTarget.get(0).isError());
        assertEquals(target, atTarget.get(0).conversationHandle());
        assertThrows(ConversationEndedException.class, () -> db.run(s -> s.send(target, o.reply, bytes("late"))));
        long before = db.endpoints();
        db.run(s -> s.endConversation(c.handle(), null, null));
        db.run(s -> s.endConversation(target, null, null));
        assertEquals(before - 2, db.endpoints());
    }
}
