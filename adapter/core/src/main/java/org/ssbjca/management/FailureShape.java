package org.ssbjca.management;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The shape of a failure, by which the console groups dead letters: the exception's class and its message with the
 * parts that differ from one message to the next replaced (quoted values, UUIDs, hexadecimal numbers and ids of 6 or
 * more hexadecimal digits with a digit and a letter among them, decimal numbers), so
 * that "order 42 not found" and "order 43 not found" fall in one group. Reads the last error as the readers record it,
 * {@code class: message}. Stateless; any thread.
 */
final class FailureShape {

    /** The group of letters without a recorded error. */
    static final String NO_ERROR = "(no error recorded)";
    /** How much of a message the shape keeps, in characters. */
    static final int MAX_LENGTH = 300;

    private static final Pattern CLASS = Pattern.compile("([A-Za-z_$][\\w$]*(?:\\.[A-Za-z_$][\\w$]*)+)(?::\\s?|$)");
    private static final Pattern QUOTED = Pattern.compile("'[^']*'|\"[^\"]*\"");
    private static final Pattern UUID = Pattern.compile(
            "\\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\\b");
    private static final Pattern HEX = Pattern.compile("\\b0[xX][0-9a-fA-F]+\\b"
            + "|\\b(?=[0-9a-fA-F]*\\d)(?=[0-9a-fA-F]*[a-fA-F])[0-9a-fA-F]{6,}\\b");
    private static final Pattern NUMBER = Pattern.compile("(?<![\\w$])\\d+(?:[.,]\\d+)*");

    private FailureShape() {
    }

    /**
     * Returns the exception class it names, or an empty string when it names none.
     *
     * @param lastError a dead letter's last error, or null
     */
    static String exceptionClass(String lastError) {
        if (lastError == null) {
            return "";
        }
        Matcher m = CLASS.matcher(lastError);
        return m.lookingAt() ? m.group(1) : "";
    }

    /**
     * Returns its shape: {@code class: message} with the varying parts as {@code <uuid>}, {@code <hex>}, {@code <n>}
     * and {@code '…'}; {@value #NO_ERROR} for none.
     *
     * @param lastError a dead letter's last error, or null
     */
    static String of(String lastError) {
        if (lastError == null || lastError.isBlank()) {
            return NO_ERROR;
        }
        String type = exceptionClass(lastError);
        String message = type.isEmpty() ? lastError : lastError.substring(Math.min(lastError.length(),
                lastError.indexOf(type) + type.length())).replaceFirst("^:\\s?", "");
        message = message.length() > MAX_LENGTH ? message.substring(0, MAX_LENGTH) : message;
        message = QUOTED.matcher(message).replaceAll(q -> q.group().charAt(0) + "…" + q.group().charAt(0));
        message = UUID.matcher(message).replaceAll("<uuid>");
        message = HEX.matcher(message).replaceAll("<hex>");
        message = NUMBER.matcher(message).replaceAll("<n>");
        message = message.strip().replaceAll("\\s+", " ");
        return type.isEmpty() ? message : message.isEmpty() ? type : type + ": " + message;
    }
}
