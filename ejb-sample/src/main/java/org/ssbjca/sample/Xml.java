package org.ssbjca.sample;

import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/** Small helpers for the XML bodies the sample sends: escaping, and times as the seeds print them. */
public final class Xml {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

    private Xml() {
    }

    /**
     * @param s text
     * @return the text escaped for an attribute value or element content
     */
    public static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length() + 16);
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case '&':
                    b.append("&amp;");
                    break;
                case '<':
                    b.append("&lt;");
                    break;
                case '>':
                    b.append("&gt;");
                    break;
                case '"':
                    b.append("&quot;");
                    break;
                case '\'':
                    b.append("&apos;");
                    break;
                default:
                    b.append(ch);
            }
        }
        return b.toString();
    }

    /**
     * @param t an instant
     * @return its local time of day, to the millisecond ({@code 14:03:27.512})
     */
    public static String time(Instant t) {
        return LocalTime.ofInstant(t, ZoneId.systemDefault()).format(TIME);
    }
}
