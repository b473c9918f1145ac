package org.ssbjca.backend.sqlserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.backend.sqlserver.SqlServerNames.QueueName;

class SqlServerNamesTest {

    @Test
    void quotesAsQuotenameDoes() {
        assertEquals("[EchoService]", SqlServerNames.quote("EchoService"));
        // QUOTENAME('abc[]def') = [abc[]]def]: only the closing bracket is doubled
        assertEquals("[abc[]]def]", SqlServerNames.quote("abc[]def"));
        assertEquals("[a]]]]b]", SqlServerNames.quote("a]]b"));
        assertEquals("[//Adventure-Works.com/Expenses]", SqlServerNames.service("//Adventure-Works.com/Expenses"));
        assertEquals("[DEFAULT]", SqlServerNames.contract("DEFAULT"));
        assertEquals("[it's \"quoted\"]", SqlServerNames.messageType("it's \"quoted\""));
    }

    @Test
    void injectionAttemptsStayInsideOneIdentifier() {
        String attack = "q]; DROP TABLE x; --";
        assertEquals("[q]]; DROP TABLE x; --]", SqlServerNames.service(attack));
        assertEquals("[q]]; DROP TABLE x; --]", SqlServerNames.messageType(attack));
        QueueName q = SqlServerNames.queue("[q]]; DROP TABLE x; --]");
        assertNull(q.schema());
        assertEquals(attack, q.name());
        assertEquals("[q]]; DROP TABLE x; --]", q.quoted());
    }

    @Test
    void unbracketedInjectionIntoAQueueNameIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SqlServerNames.queue("q]; DROP TABLE x; --"));
        assertTrue(e.getMessage().contains("only allowed inside [brackets]"), e.getMessage());
    }

    @Test
    void parsesPlainAndSchemaQualifiedQueueNames() {
        QueueName plain = SqlServerNames.queue("EchoServiceQueue");
        assertNull(plain.schema());
        assertEquals("EchoServiceQueue", plain.name());
        assertEquals("[EchoServiceQueue]", plain.quoted());

        QueueName qualified = SqlServerNames.queue("dbo.MyQueue");
        assertEquals("dbo", qualified.schema());
        assertEquals("MyQueue", qualified.name());
        assertEquals("[dbo].[MyQueue]", qualified.quoted());

        QueueName bracketed = SqlServerNames.queue("[dbo].[My.Queue]");
        assertEquals("dbo", bracketed.schema());
        assertEquals("My.Queue", bracketed.name());
        assertEquals("[dbo].[My.Queue]", bracketed.quoted());

        QueueName mixed = SqlServerNames.queue("sales.[Order Queue]");
        assertEquals("[sales].[Order Queue]", mixed.quoted());

        QueueName escaped = SqlServerNames.queue("[a]]b].[c]");
        assertEquals("a]b", escaped.schema());
        assertEquals("[a]]b].[c]", escaped.quoted());
        assertEquals(escaped, SqlServerNames.queue(escaped.quoted()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "dbo.", ".q", "[]", "[dbo].", "db.dbo.q", "[dbo]x", "[dbo", "#temp", "dbo.#temp",
        "a[b", " padded", "padded ", "\"dbo\".\"q\""})
    void refusesMalformedQueueNames(String name) {
        assertThrows(IllegalArgumentException.class, () -> SqlServerNames.queue(name));
    }

    @Test
    void enforcesTheDocumentedLengths() {
        String max = "q".repeat(128);
        assertEquals("[" + max + "]", SqlServerNames.queue(max).quoted());
        assertEquals("[" + max + "].[" + max + "]", SqlServerNames.queue(max + "." + max).quoted());
        assertThrows(IllegalArgumentException.class, () -> SqlServerNames.queue("q".repeat(129)));
        assertThrows(IllegalArgumentException.class, () -> SqlServerNames.queue("dbo." + "q".repeat(129)));
        // brackets and doubled ] do not count: 128 characters of name, each ] doubled
        assertEquals(128, SqlServerNames.queue("[" + "]]".repeat(128) + "]").name().length());

        assertEquals("[" + max + "]", SqlServerNames.service(max));
        assertThrows(IllegalArgumentException.class, () -> SqlServerNames.service("s".repeat(129)));
        assertThrows(IllegalArgumentException.class, () -> SqlServerNames.contract("c".repeat(129)));
        assertThrows(IllegalArgumentException.class, () -> SqlServerNames.messageType("m".repeat(129)));

        assertEquals("t".repeat(256), SqlServerNames.targetService("t".repeat(256)));
        assertThrows(IllegalArgumentException.class, () -> SqlServerNames.targetService("t".repeat(257)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"a\u0000b", "line\nbreak", "tab\there", "bell\u0007", "del\u007f", "c1\u0085"})
    void refusesControlCharacters(String name) {
        assertThrows(IllegalArgumentException.class, () -> SqlServerNames.service(name));
        assertThrows(IllegalArgumentException.class, () -> SqlServerNames.contract(name));
        assertThrows(IllegalArgumentException.class, () -> SqlServerNames.messageType(name));
        assertThrows(IllegalArgumentException.class, () -> SqlServerNames.targetService(name));
        assertThrows(IllegalArgumentException.class, () -> SqlServerNames.queue("[" + name + "]"));
    }

    @Test
    void refusesMissingAndBlankNames() {
        assertThrows(IllegalArgumentException.class, () -> SqlServerNames.service(null));
        assertThrows(IllegalArgumentException.class, () -> SqlServerNames.service(""));
        assertThrows(IllegalArgumentException.class, () -> SqlServerNames.contract("   "));
        assertThrows(IllegalArgumentException.class, () -> SqlServerNames.targetService(""));
        assertThrows(NullPointerException.class, () -> SqlServerNames.queue(null));
    }

    @Test
    void errorMessagesDoNotEchoControlCharacters() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SqlServerNames.service("evil\r\nname"));
        assertTrue(e.getMessage().contains("evil??name"), e.getMessage());
        assertTrue(e.getMessage().contains("U+000D"), e.getMessage());
    }
}
