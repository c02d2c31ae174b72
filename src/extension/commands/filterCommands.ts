/** Filtering what the active session's views show. */
import { describeFilter, TraceFilterSpec } from '../../core/trace/traceFilter';
import { log } from '../log';
import { pickFilter } from '../pickers/filterPicker';
import { SessionNode } from '../sessionsTree';
import { CommandContext, sessionFrom } from './context';
import { Handlers } from './registry';

export function filterCommands(ctx: CommandContext): Handlers<'seqscope.filter.set' | 'seqscope.filter.clear'> {
  const { manager } = ctx;
  return {
    'seqscope.filter.set': async (arg?: TraceFilterSpec) => {
      const s = sessionFrom(manager, undefined);
      const filter = arg && typeof arg === 'object' && !(arg instanceof SessionNode) ? arg : await pickFilter(s);
      if (!filter) return;
      await s.setFilter(filter);
      log().info(`filter on ${s.title}: ${describeFilter(filter)}`);
    },
    'seqscope.filter.clear': async () => {
      const s = sessionFrom(manager, undefined);
      await s.setFilter({});
    },
  };
}
