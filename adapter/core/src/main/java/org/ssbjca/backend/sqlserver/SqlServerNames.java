package org.ssbjca.backend.sqlserver;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Validates and quotes the names that T-SQL takes as identifiers (queues, services, contracts, message types), which
 * cannot be bound as JDBC parameters. Every identifier the SQL Server backend writes into a statement comes from this
 * class; nothing else is ever concatenated into SQL.
 *
 * <p>Quoting follows QUOTENAME with the default delimiter: {@code [} + the name with every {@code ]} doubled +
 * {@code ]} (https://learn.microsoft.com/sql/t-sql/functions/quotename-transact-sql). Names are rejected when empty
 * or blank, when longer than their documented maximum, or when they contain a control character:
 * <ul>
 * <li>queue names follow the identifier rules, each part a {@code sysname} of at most 128 characters, never starting
 * with {@code #}; a queue may be schema-qualified ({@code dbo.Orders}, {@code [dbo].[My.Queue]})
 * (https://learn.microsoft.com/sql/database-engine/service-broker/naming-service-broker-objects,
 * https://learn.microsoft.com/sql/t-sql/statements/create-queue-transact-sql);</li>
 * <li>service names are a {@code sysname}, at most 128 characters
 * (https://learn.microsoft.com/sql/t-sql/statements/create-service-transact-sql);</li>
 * <li>contract and message type names are at most 128 characters
 * (https://learn.microsoft.com/sql/t-sql/statements/create-contract-transact-sql,
 * https://learn.microsoft.com/sql/t-sql/statements/create-message-type-transact-sql);</li>
 * <li>the target service of BEGIN DIALOG is a string, not an identifier: an {@code nvarchar(256)}, bound as a
 * parameter (https://learn.microsoft.com/sql/t-sql/statements/begin-dialog-conversation-transact-sql).</li>
 * </ul>
 * Service, contract and message type names are never split on dots: {@code //Adventure-Works.com/Expenses} is one
 * name.
 */
public final class SqlServerNames {

    /** The length of a {@code sysname}, in characters. */
    public static final int SYSNAME_LENGTH = 128;
    /** The length of BEGIN DIALOG's target service string, in characters. */
    public static final int TARGET_SERVICE_LENGTH = 256;

    private SqlServerNames() {
    }

    /**
     * Quotes a name as QUOTENAME does, without validating it.
     *
     * @param name the name
     * @return {@code [name]} with every {@code ]} doubled
     */
    public static String quote(String name) {
        return "[" + name.replace("]", "]]") + "]";
    }

    /**
     * Returns a service name, validated and quoted.
     *
     * @param name a service name
     * @throws IllegalArgumentException if the name is not valid
     */
    public static String service(String name) {
        return quote(check("service", name, SYSNAME_LENGTH));
    }

    /**
     * Returns a contract name, validated and quoted.
     *
     * @param name a contract name
     * @throws IllegalArgumentException if the name is not valid
     */
    public static String contract(String name) {
        return quote(check("contract", name, SYSNAME_LENGTH));
    }

    /**
     * Returns a message type name, validated and quoted.
     *
     * @param name a message type name
     * @throws IllegalArgumentException if the name is not valid
     */
    public static String messageType(String name) {
        return quote(check("message type", name, SYSNAME_LENGTH));
    }

    /**
     * Returns the target service name of BEGIN DIALOG, validated, unchanged: it is bound as a parameter.
     *
     * @param name the target service of BEGIN DIALOG, bound as a parameter
     * @throws IllegalArgumentException if the name is not valid
     */
    public static String targetService(String name) {
        return check("target service", name, TARGET_SERVICE_LENGTH);
    }

    /**
     * Parses a queue name: {@code Queue}, {@code schema.Queue}, or either part in brackets ({@code [dbo].[My.Queue]},
     * with {@code ]]} for a {@code ]} inside brackets).
     *
     * @param name the queue name as the application wrote it
     * @return the parsed, validated name
     * @throws IllegalArgumentException if the name is not valid
     */
    public static QueueName queue(String name) {
        Objects.requireNonNull(name, "queue name");
        List<String> parts = new ArrayList<>();
        int i = 0;
        while (true) {
            StringBuilder part = new StringBuilder();
            if (i < name.length() && name.charAt(i) == '[') {
                i = bracketed(name, i + 1, part);
            } else {
                i = plain(name, i, part);
            }
            parts.add(part.toString());
            if (i == name.length()) {
                break;
            }
            if (name.charAt(i) != '.') {
                throw invalid("queue", name, "unexpected '" + name.charAt(i) + "' after a closing bracket");
            }
            i++;
        }
        if (parts.size() > 2) {
            throw invalid("queue", name, "only schema.queue is supported, not a database-qualified name");
        }
        for (String part : parts) {
            check("queue", part, SYSNAME_LENGTH);
            if (part.startsWith("#")) {
                throw invalid("queue", name, "a queue cannot be a temporary object (name starting with #)");
            }
        }
        return parts.size() == 1 ? new QueueName(null, parts.get(0)) : new QueueName(parts.get(0), parts.get(1));
    }

    private static int bracketed(String name, int from, StringBuilder part) {
        int i = from;
        while (i < name.length()) {
            char c = name.charAt(i);
            if (c == ']') {
                if (i + 1 < name.length() && name.charAt(i + 1) == ']') {
                    part.append(']');
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            part.append(c);
            i++;
        }
        throw invalid("queue", name, "a '[' is never closed");
    }

    private static int plain(String name, int from, StringBuilder part) {
        int i = from;
        while (i < name.length() && name.charAt(i) != '.') {
            char c = name.charAt(i);
            if (c == '[' || c == ']' || c == '"') {
                throw invalid("queue", name, "'" + c + "' is only allowed inside [brackets]");
            }
            part.append(c);
            i++;
        }
        String p = part.toString();
        if (!p.equals(p.strip())) {
            throw invalid("queue", name, "leading or trailing spaces are only allowed inside [brackets]");
        }
        return i;
    }

    private static String check(String kind, String name, int maxLength) {
        if (name == null) {
            throw new IllegalArgumentException("the " + kind + " name is missing");
        }
        if (name.isBlank()) {
            throw invalid(kind, name, "it is empty");
        }
        if (name.length() > maxLength) {
            throw invalid(kind, name, "it is longer than " + maxLength + " characters");
        }
        for (int i = 0; i < name.length(); i++) {
            if (Character.isISOControl(name.charAt(i))) {
                throw invalid(kind, name, "it contains the control character U+"
                        + String.format("%04X", (int) name.charAt(i)));
            }
        }
        return name;
    }

    private static IllegalArgumentException invalid(String kind, String name, String why) {
        String shown = name.length() > 40 ? name.substring(0, 40) + "..." : name;
        StringBuilder printable = new StringBuilder();
        shown.codePoints().forEach(cp -> printable.append(Character.isISOControl(cp) ? "?" : Character.toString(cp)));
        return new IllegalArgumentException("invalid " + kind + " name '" + printable + "': " + why);
    }

    /** A queue name, optionally schema-qualified, validated. Immutable. */
    public static final class QueueName {
        private final String schema;
        private final String name;

        QueueName(String schema, String name) {
            this.schema = schema;
            this.name = name;
        }

        /** Returns the schema, or null when the name is not qualified (the user's default schema applies). */
        public String schema() {
            return schema;
        }

        /** Returns the queue's own name, unquoted. */
        public String name() {
            return name;
        }

        /** Returns the name as T-SQL writes it: {@code [Queue]} or {@code [schema].[Queue]}. */
        public String quoted() {
            return schema == null ? quote(name) : quote(schema) + "." + quote(name);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof QueueName q && Objects.equals(q.schema, schema) && q.name.equals(name);
        }

        @Override
        public int hashCode() {
            return Objects.hash(schema, name);
        }

        @Override
        public String toString() {
            return quoted();
        }
    }
}
