"""The Slack bot: Bolt app, listeners and Block Kit rendering of answers."""
