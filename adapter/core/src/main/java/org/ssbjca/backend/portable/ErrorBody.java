package org.ssbjca.backend.portable;

import java.nio.charset.StandardCharsets;
import org.ssbjca.api.MessageTypes;

/** The body of a Service Broker Error message: {@code <Error xmlns="..."><Code/><Description/></Error>}. */
final class ErrorBody {

    /** The code Service Broker uses when a dialog's LIFETIME expired. */
    static final int LIFETIME_EXPIRED = -8489;

    private ErrorBody() {
    }

    static byte[] of(int code, String description) {
        String xml = "<Error xmlns=\"" + MessageTypes.ERROR_NAMESPACE + "\"><Code>" + code + "</Code><Description>"
                + escape(description) + "</Description></Error>";
        return xml.getBytes(StandardCharsets.UTF_8);
    }

    private static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                default -> b.append(ch);
            }
        }
        return b.toString();
    }
}
